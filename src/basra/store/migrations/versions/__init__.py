"""The migrations, one module per revision, in order of their numbers."""
