"""Tagflow chip blocks for Python site generators: Python-Markdown, MkDocs and Pelican.

The hosts' modules (``.markdown``, ``.mkdocs``, ``.pelican``) import their host, so only the
client is imported here: using one host never requires the others to be installed.
"""

from .client import ChipServer, TagflowError, TagflowNotFound, enhance, find_tagflow, shared_server

__all__ = ["ChipServer", "TagflowError", "TagflowNotFound", "enhance", "find_tagflow", "shared_server"]
__version__ = "0.1.0"
