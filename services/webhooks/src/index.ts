// The webhook worker (issue 13): consumes change events, stores notifications per matching
// webhook, delivers them signed. Built in steps; see docs/webhooks.md once it lands.
export {};
