"""Who a player is: guests, accounts, sessions, passkeys, password hashing and names."""
