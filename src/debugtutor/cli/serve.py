"""``debugtutor serve``: the web app; ``debugtutor web-users``: the per-user tokens it accepts.

The server binds 127.0.0.1 unless told otherwise. Bound to any other address it refuses to start until at least one
user exists, and every page then asks for a token (``web-users add NAME`` prints one, once).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Optional

import typer
from rich.table import Table

from debugtutor.cli.options import ModelOptions, with_model_options
from debugtutor.console import emit_json, log, state, stdout
from debugtutor.errors import InputError, require

_DEFAULT_MODEL_OPTIONS = ModelOptions()  # (replaced by the user's options: see with_model_options)

DataDirOption = Annotated[
    Path, typer.Option("--data-dir", help="Folder of the web app's SQLite database, pictures and exports.")
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print one JSON object on stdout.")]

users_app = typer.Typer(help="Per-user tokens for the web app (annotators, raters, admins).", no_args_is_help=True)


@with_model_options
def serve_command(
    data_dir: DataDirOption = Path("debugtutor-data"),
    host: Annotated[
        str, typer.Option("--host", help="Address to listen on; not loopback requires tokens.")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="Port to listen on.")] = 8000,
    runs_dir: Annotated[
        Optional[Path],  # noqa: UP045 - Typer evaluates annotations at run time, on Python 3.10 too
        typer.Option("--runs-dir", help="Folder of run records \\[default: $DEBUGTUTOR_RUNS_DIR or ./runs]."),
    ] = None,
    model: Annotated[
        Optional[list[str]],  # noqa: UP045
        typer.Option(
            "--model", help="A model spec tutors may choose (repeatable); the offline instructor is always offered."
        ),
    ] = None,
    require_tokens: Annotated[
        bool, typer.Option("--require-tokens", help="Ask for a token even when listening on loopback only.")
    ] = False,
    max_upload_kb: Annotated[int, typer.Option("--max-upload-kb", min=1, help="Largest request body accepted.")] = 4096,
    model_options: ModelOptions = _DEFAULT_MODEL_OPTIONS,
) -> None:
    """Serve the web app: tutor, dialogue annotation, manual evaluation, expert studies, runs."""
    from debugtutor.web.app import create_app
    from debugtutor.web.auth import list_users
    from debugtutor.web.context import WebConfig, open_database

    uvicorn: Any = require("uvicorn", feature="the web app", extra="web")
    config = WebConfig(
        data_dir=data_dir,
        host=host,
        port=port,
        runs_dir=runs_dir,
        require_tokens=require_tokens,
        models=tuple(model or ()),
        resolve_model=model_options.resolve,
        max_upload_bytes=max_upload_kb * 1024,
    )
    if config.tokens_required and not [u for u in list_users(open_database(config)) if not u["revoked"]]:
        raise InputError(
            f"serving on {host} needs per-user tokens, and {data_dir} has no users",
            hint=f"create one first: debugtutor web-users add NAME --role admin --data-dir {data_dir}",
        )
    app = create_app(config)
    mode = "tokens required" if config.tokens_required else "open to this machine's users"
    log(f"serving debugtutor on http://{host}:{port}/ ({mode}); data in {data_dir}")
    uvicorn.run(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=5)


@users_app.command("add")
def users_add(
    name: Annotated[str, typer.Argument(help="The user's name (letters, digits, _ . @ -).")],
    data_dir: DataDirOption = Path("debugtutor-data"),
    role: Annotated[
        str, typer.Option("--role", help="annotator (labels and ratings) or admin (also studies, results).")
    ] = "annotator",
    as_json: JsonOption = False,
) -> None:
    """Create a user (or give an existing one a new token) and print the token, once."""
    from debugtutor.web.auth import create_user
    from debugtutor.web.context import WebConfig, open_database

    token = create_user(open_database(WebConfig(data_dir=data_dir)), name, role)
    if as_json or state.json_mode:
        emit_json({"name": name, "role": role, "token": token})
        return
    stdout.print(f"token for {name} ({role}): {token}\nIt is shown only now; hand it to {name} privately.")


@users_app.command("list")
def users_list(data_dir: DataDirOption = Path("debugtutor-data"), as_json: JsonOption = False) -> None:
    """The users of a data folder (never their tokens)."""
    from debugtutor.web.auth import list_users
    from debugtutor.web.context import WebConfig, open_database

    users = list_users(open_database(WebConfig(data_dir=data_dir)))
    if as_json or state.json_mode:
        emit_json({"users": users})
        return
    table = Table("name", "role", "created", "revoked")
    for user in users:
        table.add_row(user["name"], user["role"], user["created"], "yes" if user["revoked"] else "")
    stdout.print(table)


@users_app.command("revoke")
def users_revoke(
    name: Annotated[str, typer.Argument(help="The user whose token stops working.")],
    data_dir: DataDirOption = Path("debugtutor-data"),
    as_json: JsonOption = False,
) -> None:
    """Revoke a user's token and end their sessions."""
    from debugtutor.web.auth import revoke_user
    from debugtutor.web.context import WebConfig, open_database

    if not revoke_user(open_database(WebConfig(data_dir=data_dir)), name):
        raise InputError(f"no user named {name!r}", field="name")
    if as_json or state.json_mode:
        emit_json({"name": name, "revoked": True})
        return
    stdout.print(f"{name}'s token is revoked")


def register(app: typer.Typer) -> None:
    """Add ``serve`` and the ``web-users`` group."""
    app.command("serve")(serve_command)
    app.add_typer(users_app, name="web-users")
