"""The `users/*` calls (under /api/, docs/decisions.md 1), split by domain: `auth` (register, e-mail
confirmation, login, tokens, logout, password reset) and `users` (profile, staff list and detail); `serializers`
holds what they accept and `outputs` what they answer."""
