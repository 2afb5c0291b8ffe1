"""Fair play (issue 31, docs/MODERATION.md): reports, moderators and their log, leavers'
waits, rating refunds, the engine-assistance flag and the names' word list."""
