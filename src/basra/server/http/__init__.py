"""HTTP and websockets: thin routers, what they share (deps), limits per address and per
user, security headers, the slow-connection guard, the site's origin and static files.
"""
