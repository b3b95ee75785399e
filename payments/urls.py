urlpatterns = []

api_urlpatterns = []
