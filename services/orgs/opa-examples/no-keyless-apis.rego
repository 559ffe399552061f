# The reference dashboard's own example: nobody creates or updates an open (keyless) API.
package dashboard_users

import future.keywords.if

default request_intent = "read"

request_intent = "write" if input.request.method == "POST"

request_intent = "write" if input.request.method == "PUT"

deny contains "You cannot create a keyless API." if {
	request_intent == "write"
	contains(input.request.path, "/api/apis")
	input.request.body.api_definition.use_keyless == true
}
