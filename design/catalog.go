package design

import . "goa.design/goa/v3/dsl"

var ConfigOptionResult = ResultType("application/vnd.streamcart.config-option", "ConfigOptionResult", func() {
	Attributes(func() {
		Attribute("id", Int, "Config option id (2 extra connections, 4 proxy protection)")
		Attribute("name", String)
		Attribute("type", String, func() { Enum("quantity", "yesno") })
		Attribute("maxQty", Int, "Largest quantity for quantity options")
		Attribute("pricing", MapOf(String, Money), "Price per unit by billing cycle, in the requested currency")
		Required("id", "name", "type", "maxQty", "pricing")
	})
})

var CustomFieldResult = Type("CustomFieldResult", func() {
	Attribute("id", Int)
	Attribute("name", String)
	Attribute("type", String)
	Attribute("description", String)
	Attribute("required", Boolean)
	Required("id", "name", "type", "required")
})

var ProductResult = ResultType("application/vnd.streamcart.product", "ProductResult", func() {
	Attributes(func() {
		Attribute("pid", Int, "Product id")
		Attribute("group", String, func() { Enum("plan", "reseller") })
		Attribute("name", String)
		Attribute("description", String)
		Attribute("features", ArrayOf(String))
		Attribute("trial", Boolean, "A free trial: no payment, no card")
		Attribute("cycles", ArrayOf(String), "Enabled billing cycles, shortest first")
		Attribute("pricing", MapOf(String, Money), "Price by billing cycle in the requested currency")
		Attribute("currency", String, "Currency of every amount in this product")
		Attribute("configOptions", CollectionOf(ConfigOptionResult))
		Attribute("customFields", ArrayOf(CustomFieldResult))
		Attribute("saveBadge", String, "Badge such as \"Save 20%\"; empty when none")
		Attribute("soldBadge", String, "Badge such as \"Best seller\"; empty when none")
		Attribute("guarantee", String, "Guarantee text; empty when none")
		Attribute("credits", Int, "Reseller credits granted (reseller plans)")
		Attribute("available", Boolean, "false while the plan is temporarily unavailable: the panel's reseller credits cannot cover a line of it in any of its cycles (read at least every minute); an order of it answers 409 out_of_stock")
		Required("pid", "group", "name", "description", "features", "trial", "cycles", "pricing", "currency",
			"configOptions", "customFields", "saveBadge", "soldBadge", "guarantee", "credits", "available")
	})
})

var ProductList = Type("ProductList", func() {
	Attribute("products", CollectionOf(ProductResult))
	Required("products")
})

var CurrencyResult = Type("CurrencyResult", func() {
	Attribute("code", String, func() { Example("EUR") })
	Attribute("rate", String, "Decimal rate relative to the default currency", func() { Example("1") })
	Attribute("prefix", String, func() { Example("€") })
	Attribute("suffix", String)
	Required("code", "rate", "prefix", "suffix")
})

var GatewayResult = Type("GatewayResult", func() {
	Attribute("module", String, func() { Example("sandbox") })
	Attribute("displayName", String)
	Required("module", "displayName")
})

var AppResult = Type("AppResult", func() {
	Attribute("name", String)
	Attribute("platform", String)
	Attribute("url", String)
	Attribute("icon", String)
	Required("name", "platform", "url", "icon")
})

var SetupAppResult = Type("SetupAppResult", func() {
	Description("An app of the catalog as the device panel shows it: its name and how it takes a line.")
	Attribute("name", String)
	Attribute("platform", String)
	Attribute("setup", String, "How the app takes a line: the Xtream codes (server, username, password) or the m3u playlist URL", func() { Enum("xtream", "m3u") })
	Required("name", "platform", "setup")
})

var DeviceResult = Type("DeviceResult", func() {
	Description("A set-top box family the success page explains. portal and command are templates: {server} (the line's host:port), {username} and {password} are the line's.")
	Attribute("family", String, func() { Enum("mag", "enigma2") })
	Attribute("name", String)
	Attribute("portal", String, "mag: the portal URL given to the box (the box's MAC is registered on the line); empty otherwise")
	Attribute("command", String, "enigma2: the one-line install command run on the receiver; empty otherwise")
	Required("family", "name", "portal", "command")
})

var SellerResult = Type("SellerResult", func() {
	Description("Who sells (the catalog's seller); a field the catalog leaves out is left out here too (the answer is on the widget's first paint).")
	Attribute("name", String, "Legal name")
	Attribute("address", String, "Postal address")
	Attribute("country", String, "ISO 3166 alpha-2 code")
	Attribute("taxId", String, "VAT or other tax number")
	Attribute("email", String, "Support and billing address")
	Attribute("supportUrl", String, "The seller's support site")
})

var ConsentResult = Type("ConsentResult", func() {
	Description("What the buyer is asked before paying (the catalog's consent).")
	Attribute("checkbox", Boolean, "Ask for a ticked box besides the consent line")
	Required("checkbox")
})

var CardResult = Type("CardResult", func() {
	Attribute("title", String)
	Attribute("text", String)
	Attribute("url", String)
	Attribute("icon", String)
	Required("title", "text", "url", "icon")
})

// Locales are the storefront's languages; catalog texts fall back to the catalog's own language.
var Locales = []any{"en", "en-us", "en-gb", "de-de", "es-es", "nl-nl", "pt-pt"}

func localeParam() {
	Attribute("locale", String, "Language of the catalog texts (names, descriptions, badges); the catalog's own when absent or untranslated", func() {
		Enum(Locales...)
	})
}

func currencyParam() {
	Attribute("currency", String, "Currency of the prices (default currency when absent)", func() {
		Pattern("^[A-Za-z]{3}$")
	})
}

var _ = Service("catalog", func() {
	Description("What is for sale, in which currencies, paid through which gateways.")
	// Each method declares the errors its code path (api/httpapi/catalog.go) can return.

	Method("listProducts", func() {
		Description("The plans for sale on the request's storefront (all plans when it names none), priced in the storefront's default currency when none is asked.")
		Payload(func() {
			currencyParam()
			localeParam()
		})
		Result(ProductList)
		Error("bad_request") // unknown currency, or a plan without a price in it
		HTTP(func() {
			GET("/products")
			Param("currency")
			Param("locale")
		})
	})
	Method("getProduct", func() {
		Description("One product by id.")
		Payload(func() {
			Attribute("pid", Int)
			currencyParam()
			localeParam()
			Required("pid")
		})
		Result(ProductResult)
		Error("not_found")
		Error("bad_request") // unknown currency, or no price in it
		HTTP(func() {
			GET("/products/{pid}")
			Param("currency")
			Param("locale")
		})
	})
	Method("listResellerProducts", func() {
		Description("The reseller credit plans.")
		Payload(func() {
			currencyParam()
			localeParam()
		})
		Result(ProductList)
		Error("bad_request") // unknown currency, or a plan without a price in it
		HTTP(func() {
			GET("/resellers/products")
			Param("currency")
			Param("locale")
		})
	})
	Method("listCurrencies", func() {
		Result(func() {
			Attribute("currencies", ArrayOf(CurrencyResult))
			Attribute("default", String)
			Required("currencies", "default")
		})
		HTTP(func() { GET("/currencies") })
	})
	Method("convert", func() {
		Description("Converts an amount between currencies with the catalog's rates.")
		Payload(func() {
			Attribute("amount", Int64, "Amount in minor units of the source currency")
			Attribute("from", String)
			Attribute("to", String)
			Required("amount", "from", "to")
		})
		Result(func() {
			Attribute("amount", Int64, "Amount in minor units of the target currency")
			Attribute("currency", String)
			Attribute("rate", String, "Effective decimal rate from → to")
			Required("amount", "currency", "rate")
		})
		Error("bad_request") // unknown currency
		HTTP(func() {
			GET("/convert")
			Param("amount")
			Param("from")
			Param("to")
		})
	})
	Method("listGateways", func() {
		Payload(func() { localeParam() })
		Result(func() {
			Attribute("gateways", ArrayOf(GatewayResult))
			Attribute("default", String)
			Required("gateways", "default")
		})
		HTTP(func() {
			GET("/gateways")
			Param("locale")
		})
	})
	Method("storefront", func() {
		Description("Storefront settings (the Streamcart-Store key's name, logo, theme, defaults and plans) and the success page's app buttons and utility cards.")
		Payload(func() { localeParam() })
		Result(func() {
			Attribute("name", String, "Display name of the storefront the request's key (or the default storefront) names")
			Attribute("key", String, "Publishable key of that storefront; empty when the catalog defines none")
			Attribute("logo", String, "URL of the storefront's logo; empty when none")
			Attribute("theme", MapOf(String, String), "Colour name → CSS value, applied by the widget as --sc-<name>")
			Attribute("defaultLocale", String, "Locale the widget starts in when the page sets none; empty: the buyer's browser language")
			Attribute("defaultCurrency", String)
			Attribute("plans", ArrayOf(Int), "Plans (pids) this storefront sells; empty: every plan")
			Attribute("dashboardUrl", String)
			Attribute("supportUrl", String)
			Attribute("apps", ArrayOf(AppResult))
			Attribute("cards", ArrayOf(CardResult))
			Attribute("seller", SellerResult)
			Attribute("legal", MapOf(String, String), "Legal and help pages by name (terms, privacy, refunds, dmca, …): the URL of the shop's rendered page (/checkout/[locale/]legal/{name}, in the asked locale) or the seller's own")
			Attribute("consent", ConsentResult)
			Required("name", "key", "logo", "theme", "defaultLocale", "defaultCurrency", "plans", "dashboardUrl", "supportUrl", "apps", "cards", "seller", "legal", "consent")
		})
		HTTP(func() {
			GET("/storefront")
			Param("locale")
		})
	})
	Method("devices", func() {
		Description("What the 'Set up your device' panel shows (the success page, the services view): the catalog's apps with how each takes a line, and its set-top box families with their templates. Apart from /storefront, which is on the widget's first paint.")
		Payload(func() { localeParam() })
		Result(func() {
			Attribute("apps", ArrayOf(SetupAppResult), "The catalog's apps, in its order, names in the asked locale")
			Attribute("devices", ArrayOf(DeviceResult), "The catalog's set-top box families, in its order")
			Required("apps", "devices")
		})
		HTTP(func() {
			GET("/devices")
			Param("locale")
		})
	})
})
