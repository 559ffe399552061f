# Only the "Platform" user group deletes APIs and webhooks. `protected` is a helper function
# with two bodies: either one matching makes it true.
package dashboard_users

import future.keywords.if

protected(path) if regex.match(`^/api/apis/[^/]+$`, path)

protected(path) if startswith(path, "/api/hooks/")

deny contains msg if {
	input.request.method == "DELETE"
	protected(input.request.path)
	input.user.group_name != "Platform"
	msg := sprintf("Only the Platform group deletes %s", [input.request.path])
}
