"""Friends, presence, challenges and notifications (issue 28; docs/SOCIAL.md).

- :mod:`.relay`: the :class:`~.relay.Relay` port, how a message reaches a player's signed-in
  pages on whichever process holds them, and who is online anywhere; :class:`~.relay.Hub`,
  this process's pages, and :class:`~.relay.LocalRelay`, one process's implementation (a
  cluster node's is :class:`basra.server.cluster.social.RedisRelay`);
- :mod:`.presence`: :class:`~.presence.Presence`, who is online and telling their followers;
- :mod:`.notify`: :class:`~.notify.Notifier`, the bell's notifications (kept, sent to open
  pages, pushed by Web Push to the others);
- :mod:`.push`: Web Push (VAPID, through pywebpush);
- :mod:`.friends`: :class:`~.friends.Friends`, follows, blocks, the friends page, settings;
- :mod:`.challenges`: :class:`~.challenges.Challenges`, one player challenging another.
"""
