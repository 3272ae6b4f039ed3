"""The Pelican plugin: tag lists in the built site become Tagflow chip blocks.

Enable it as ``PLUGINS = ["tagflow"]`` (the namespace plugin ``pelican.plugins.tagflow`` this
package installs) or ``PLUGINS = ["tagflow_integrations.pelican"]``. When the site is written
(``finalized``) it runs ``tagflow enhance`` over the output folder with the ``pelican`` preset;
```` ```chips ```` blocks in Markdown content become chip blocks too (``TAGFLOW_FENCED``).

Settings (pelicanconf.py), all optional:

``TAGFLOW_PATH``       the tagflow executable (default: $TAGFLOW, then PATH)
``TAGFLOW_PRESETS``    presets for ``tagflow enhance`` (default: ``["pelican"]``)
``TAGFLOW_SELECTORS``  more CSS selectors of tag lists to replace (default: none)
``TAGFLOW_CONFIG``     a Tagflow YAML file with chip settings
``TAGFLOW_STRICT``     ``tagflow enhance --strict`` (default: False)
``TAGFLOW_FENCED``     turn ```chips blocks into chip blocks (default: True)
``TAGFLOW_CSS``        for ```chips blocks: ``"inline"`` (default) or ``"none"``
``TAGFLOW_BASE_PATH``  the site's path prefix (default: the path of SITEURL)
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any, Optional
from urllib.parse import urlsplit

from pelican import signals

from .client import enhance, find_tagflow, normalize_base_path

__all__ = ["register"]

logger = logging.getLogger(__name__)

EXTENSION = "tagflow_integrations.markdown"
EXTENSION_NAMES = (EXTENSION, "tagflow")


def register() -> None:
    """Pelican's plugin hook. Registering twice (both plugin names listed) connects once."""
    # initialized comes before any content is read, so the extension is in MARKDOWN in time.
    signals.initialized.connect(add_markdown_extension)
    signals.finalized.connect(enhance_output)


def _base_path(settings: Mapping[str, Any]) -> Optional[str]:
    explicit = settings.get("TAGFLOW_BASE_PATH")
    site_url = settings.get("SITEURL") or ""
    return normalize_base_path(explicit or (urlsplit(site_url).path if site_url else None))


def add_markdown_extension(pelican: Any) -> None:
    """Adds the chips extension to MARKDOWN before any reader is made (``initialized``).

    Also looks for tagflow: every build ends with ``tagflow enhance``, so a missing one stops
    Pelican here, with the message, rather than after all the content is read and written.
    """
    settings = pelican.settings
    find_tagflow(settings.get("TAGFLOW_PATH"))
    if not settings.get("TAGFLOW_FENCED", True):
        return
    markdown = settings.get("MARKDOWN") or {}
    listed = list(markdown.get("extensions", [])) + list(markdown.get("extension_configs", {}))
    if any(name in listed for name in EXTENSION_NAMES):
        return  # configured by hand: respect that
    # A new dict rather than an edit: MARKDOWN may be the object of Pelican's default settings.
    settings["MARKDOWN"] = {
        **markdown,
        "extension_configs": {
            **markdown.get("extension_configs", {}),
            EXTENSION: {
                "tagflow": settings.get("TAGFLOW_PATH") or "",
                "config": settings.get("TAGFLOW_CONFIG") or "",
                "css": settings.get("TAGFLOW_CSS", "inline"),
                "base_path": _base_path(settings) or "",
            },
        },
    }


def enhance_output(pelican: Any) -> None:
    """Runs ``tagflow enhance`` over the written site (``finalized``); its errors stop the build."""
    settings = pelican.settings
    result = enhance(
        pelican.output_path,
        presets=settings.get("TAGFLOW_PRESETS", ["pelican"]),
        selectors=settings.get("TAGFLOW_SELECTORS", ()),
        config=settings.get("TAGFLOW_CONFIG"),
        base_path=_base_path(settings),
        strict=bool(settings.get("TAGFLOW_STRICT", False)),
        executable=settings.get("TAGFLOW_PATH"),
    )
    for line in result.stderr.splitlines():
        if line.strip():
            logger.warning("tagflow: %s", line)
    if result.stdout.strip():
        logger.info("tagflow: %s", result.stdout.strip())
