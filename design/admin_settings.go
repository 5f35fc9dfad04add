package design

import . "goa.design/goa/v3/dsl"

// AdminSetting is one setting of the running shop as the console's Settings screen shows it.
var AdminSetting = Type("AdminSetting", func() {
	Attribute("name", String, "The flag's name (job-poll)")
	Attribute("env", String, "The environment variable it was read from, or would be (STREAMCART_JOB_POLL); a secret read from a file names the _FILE variable")
	Attribute("flag", String, "The command-line flag (--job-poll); empty for a setting read only from the environment (secrets)")
	Attribute("value", String, "The value in force; a secret's is masked (\"••••\", or empty when unset), a URL's password is masked, a secret read from a file shows the file's path")
	Attribute("source", String, "Where the value comes from", func() { Enum("default", "environment", "flag") })
	Attribute("secret", Boolean, "The value is masked")
	Attribute("description", String, "What the setting does")
	Required("name", "env", "flag", "value", "source", "secret", "description")
})

var _ = Service("adminSettings", func() {
	Description("The console's Settings screen: every setting of the running shop, read only (owner).")
	HTTP(func() { Path("/admin/settings") })
	Error("unauthorized")
	Error("forbidden")

	Method("list", func() {
		Description("Every setting in force on this replica, in the order `streamcart settings` lists them, with its source (default, environment, flag); secrets masked.")
		Payload(func() { operatorSession() })
		Result(func() {
			Attribute("settings", ArrayOf(AdminSetting))
			Required("settings")
		})
		HTTP(func() {
			GET("")
			adminCookie(false)
		})
	})
})
