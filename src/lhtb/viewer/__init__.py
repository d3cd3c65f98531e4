"""``lhtb view``: a self-contained static web viewer for job results (HTML + a little vanilla JS, no CDNs)."""

from __future__ import annotations

from lhtb.viewer.site import SiteSummary, build_site

__all__ = ["SiteSummary", "build_site"]
