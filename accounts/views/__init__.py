"""Account pages: signing in, registering and passwords (sign_in); the profile (profile)."""
