from studio.pages import simple_page

gallery_page = simple_page("media_library/gallery.html", "Galerie photos et vidéos")
