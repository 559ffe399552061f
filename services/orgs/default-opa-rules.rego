# Default dashboard policy-engine rules of gw (open_policy.rules), used by every organisation
# until it stores its own through PUT /api/org/opa. They take effect once the organisation sets
# open_policy.enabled; gw's own permission checks run first either way.
#
# Modelled on the reference dashboard's default rules, adapted to gw: every endpoint already
# checks its permission (input.request.permission), so these rules only add what a permission
# level can not say. The language is the subset of Rego described in lib/rego/README.md.
package dashboard_users

import future.keywords.if
import future.keywords.in

# What the request means to do.
default request_intent = "read"

request_intent = "write" if input.request.method in {"POST", "PUT", "PATCH"}

request_intent = "delete" if input.request.method == "DELETE"

# Administrators hold IsAdmin at level admin, their own or their group's (gw puts it in the input).
default is_admin := false

is_admin if input.user.user_permissions.IsAdmin == "admin"

# The path's segments: ["", "api", "users", "<id>", ...]
path_parts := split(input.request.path, "/")

# The user a /api/users/<id>... request is about.
target_user := path_parts[3] if path_parts[2] == "users"

is_self if target_user == input.user.id

# The body of a write, when it is a JSON object.
body := input.request.body if is_object(input.request.body)

grants_admin if body.user_permissions.IsAdmin == "admin"

# --------- deny rules -----------

deny contains "User is not active" if {
	not input.user.active
}

# Nobody changes their own permissions, administrators included: another administrator must.
deny contains "You can not change your own permissions" if {
	request_intent == "write"
	is_self
	body.user_permissions
}

# Only administrators make administrators (users and user groups alike).
deny contains "Only administrators can grant the IsAdmin permission" if {
	request_intent == "write"
	not is_admin
	grants_admin
}

# Users (excluding administrators) reset only their own password.
deny contains "You do not have permission to reset the password for other users." if {
	endswith(input.request.path, "/actions/reset")
	not is_admin
	not is_self
}

# Objects of another organisation are never written, whatever the endpoint would do with them.
written_org_ids contains body.org_id if request_intent == "write"

written_org_ids contains body.api_definition.org_id if request_intent == "write"

deny contains msg if {
	some org_id in written_org_ids
	org_id != ""
	org_id != input.user.org_id
	msg := sprintf("You can not write objects of another organisation (%v)", [org_id])
}

# An explicit "deny" holds even for administrators (who otherwise pass every permission check).
deny contains msg if {
	is_admin
	needed := input.request.permission.name
	input.user.user_permissions[needed] == "deny"
	msg := sprintf("You do not have permission to carry out '%s' operation on '%s'.", [request_intent, input.request.path])
}
