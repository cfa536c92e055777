"""Accounts: sign-up, log-in, passwords, the authentication backend and the throttles that every
door of the site shares. The floor below the catalogue: it imports none of the project's apps."""
