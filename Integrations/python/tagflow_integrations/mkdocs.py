"""The MkDocs plugin ``tagflow``: tag lists in the built site become Tagflow chip blocks.

``plugins: [tags, tagflow]`` in mkdocs.yml. After the build (``on_post_build``) it runs
``tagflow enhance`` over the site folder, with the ``mkdocs-material`` preset when the theme is
Material; with ``fenced: true`` (the default) ```` ```chips ```` blocks in pages become chip
blocks too, through the Markdown extension.
"""

from __future__ import annotations

import logging
import os
from typing import Optional
from urllib.parse import urlsplit

from mkdocs.config import config_options as c
from mkdocs.config.base import Config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin

from .client import TagflowError, enhance, find_tagflow, normalize_base_path
from .markdown import ChipsPreprocessor, TagflowExtension

__all__ = ["TagflowPlugin", "TagflowPluginConfig"]

# Under "mkdocs." so that `mkdocs build --strict` counts tagflow's warnings like its own.
log = logging.getLogger("mkdocs.plugins.tagflow")

# The Markdown extension's names, under which a user may have listed it already.
EXTENSION_NAMES = ("tagflow_integrations.markdown", "tagflow")


class TagflowPluginConfig(Config):
    tagflow = c.Optional(c.Type(str))
    """The tagflow executable (default: $TAGFLOW, then PATH); relative paths are from mkdocs.yml."""
    presets = c.Optional(c.ListOfItems(c.Type(str)))
    """Presets for `tagflow enhance`; default: ["mkdocs-material"] with the Material theme, else none."""
    selectors = c.ListOfItems(c.Type(str), default=[])
    """More CSS selectors of tag lists to replace."""
    config = c.Optional(c.File(exists=True))
    """A Tagflow YAML file with chip settings (relative to mkdocs.yml)."""
    strict = c.Type(bool, default=False)
    """`tagflow enhance --strict`: its warnings fail the build."""
    fenced = c.Type(bool, default=True)
    """Turn ```chips blocks into chip blocks."""
    css = c.Choice(("inline", "none"), default="inline")
    """For ```chips blocks: a <style> in each page that has one, or none (you link the CSS)."""
    base_path = c.Optional(c.Type(str))
    """The site's path prefix; default: the path of site_url."""


class _ReportingPreprocessor(ChipsPreprocessor):
    def run(self, lines: list[str]) -> list[str]:
        try:
            return super().run(lines)
        except TagflowError as error:
            # A BuildError is what MkDocs reports as a message (after the page's name) and stops
            # on; any other exception would end the build with a traceback.
            raise PluginError(str(error)) from error


class MkDocsChipsExtension(TagflowExtension):
    """The chips extension, with its errors reported the MkDocs way."""

    preprocessor_class = _ReportingPreprocessor


class TagflowPlugin(BasePlugin[TagflowPluginConfig]):
    def on_config(self, config: MkDocsConfig) -> Optional[MkDocsConfig]:
        self.executable = self.config.tagflow
        if self.executable and os.sep in self.executable and not os.path.isabs(self.executable):
            # A path (not a bare command name) is read from mkdocs.yml's folder, like other paths there.
            self.executable = os.path.join(os.path.dirname(config.config_file_path or ""), self.executable)
        self.presets: list[str] = self.config.presets
        if self.presets is None:
            self.presets = ["mkdocs-material"] if config.theme.name == "material" else []
        site_path = urlsplit(config.site_url).path if config.site_url else None
        self.base_path = normalize_base_path(self.config.base_path or site_path)
        try:
            # Every build ends with `tagflow enhance`: without tagflow, say so before building.
            find_tagflow(self.executable)
        except TagflowError as error:
            raise PluginError(str(error)) from error

        if self.config.fenced and not any(name in config.markdown_extensions for name in EXTENSION_NAMES):
            # An instance, not a name: MkDocs hands the list to Python-Markdown as it is, and a
            # name would load the plain extension, whose errors MkDocs shows as tracebacks.
            config.markdown_extensions.append(
                MkDocsChipsExtension(
                    tagflow=self.executable or "",
                    config=self.config.config or "",
                    css=self.config.css,
                    base_path=self.base_path or "",
                )
            )
        return config

    def on_post_build(self, *, config: MkDocsConfig) -> None:
        try:
            result = enhance(
                config.site_dir,
                presets=self.presets,
                selectors=self.config.selectors,
                config=self.config.config,
                base_path=self.base_path,
                strict=self.config.strict,
                executable=self.executable,
            )
        except TagflowError as error:
            # PluginError makes MkDocs stop with the message, without a traceback.
            raise PluginError(str(error)) from error
        for line in result.stderr.splitlines():
            if line.strip():
                log.warning(line)
        if result.stdout.strip():
            log.info(result.stdout.strip())
