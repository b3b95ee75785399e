"""Video links of YouTube and Vimeo, played through each site's privacy-friendly player."""

import re

YOUTUBE_ID = re.compile(
    r"^https?://(?:www\.|m\.)?(?:youtube\.com/(?:watch\?(?:.*&)?v=|embed/|shorts/)|youtu\.be/)([A-Za-z0-9_-]{11})"
)
VIMEO_ID = re.compile(r"^https?://(?:www\.|player\.)?vimeo\.com/(?:video/)?(\d+)")


def embed_url_for(external_url: str) -> str:
    """The privacy-friendly player URL of a YouTube or Vimeo link, else ''."""
    if match := YOUTUBE_ID.match(external_url or ""):
        return f"https://www.youtube-nocookie.com/embed/{match.group(1)}"
    if match := VIMEO_ID.match(external_url or ""):
        return f"https://player.vimeo.com/video/{match.group(1)}"
    return ""
