# Default dashboard policy-engine rules of gw (open_policy.rules), used by every organisation
# until it stores its own through PUT /api/org/opa.
package dashboard_users

default request_intent = "read"

request_intent = "write" { input.request.method == "POST" }
request_intent = "write" { input.request.method == "PUT" }
request_intent = "delete" { input.request.method == "DELETE" }

# Users may not change their own permissions.
deny["You can not change your own permissions"] {
  request_intent == "write"
  startswith(input.request.path, sprintf("/api/users/%v", [input.user.id]))
  input.request.body.user_permissions
}
