"""The project top: what gathers every app (root URLs, sitemap, bench seed). See project/apps.py."""
