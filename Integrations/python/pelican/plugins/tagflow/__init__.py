"""Tagflow chip blocks for Pelican, as the namespace plugin ``tagflow`` (``PLUGINS = ["tagflow"]``).

Pelican 4.5+ finds plugins under ``pelican.plugins``; the plugin itself lives in
``tagflow_integrations.pelican``, which ``PLUGINS`` may also name directly.
"""

from tagflow_integrations.pelican import register

__all__ = ["register"]
