# Keys are written only by users who also hold the additional permission `key_manager`
# (declared with PUT /api/org/permissions, granted like any other permission).
package dashboard_users

import future.keywords.if
import future.keywords.in

deny contains msg if {
	input.request.permission.name == "keys"
	input.request.method in {"POST", "PUT", "DELETE"}
	not input.user.user_permissions.key_manager
	msg := sprintf("%s may read keys but not change them: ask for the key_manager permission", [input.user.email_address])
}
