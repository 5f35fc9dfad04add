package mail

// Texts are every sentence of every message in one locale. Placeholders: {store}, {order},
// {total}, {minutes}. Each locale is a keyed literal of this type: a misspelt or removed field
// does not compile, and TestTextsComplete fails the build for a field left out (empty) or a
// placeholder lost in translation. A new message adds its fields here and to every locale.
type Texts struct {
	Greeting  string
	Signature string

	SigninSubject string
	SigninIntro   string
	SigninButton  string
	SigninIgnore  string

	OrderSubject string
	OrderIntro   string
	OrderNext    string
	OrderButton  string

	ReadySubject string
	ReadyIntro   string
	ReadyButton  string
	// ReadyCredentials says where the credentials are: never the password itself.
	ReadyCredentials string
}

// texts holds every locale of Locales.
var texts = map[string]Texts{
	"en":    english,
	"en-us": english,
	"en-gb": english,
	"de-de": german,
	"es-es": spanish,
	"nl-nl": dutch,
	"pt-pt": portuguese,
}

var english = Texts{
	Greeting:  "Hello,",
	Signature: "The {store} team",

	SigninSubject: "Your sign-in link for {store}",
	SigninIntro:   "Use this link to sign in to {store}. It works once, within {minutes} minutes:",
	SigninButton:  "Sign in",
	SigninIgnore:  "If you did not ask for it, ignore this email: nobody can sign in without the link.",

	OrderSubject: "We received your order {order}",
	OrderIntro:   "Thank you for your order {order}: your payment of {total} has arrived.",
	OrderNext:    "We are setting up your line now and will write again as soon as it is ready.",
	OrderButton:  "View your order",

	ReadySubject:     "Your line is ready (order {order})",
	ReadyIntro:       "Good news: the line from your order {order} is ready to use.",
	ReadyButton:      "Show my access details",
	ReadyCredentials: "Your user name, password and server address are on this page once you sign in. For your safety we never send passwords by email.",
}

var german = Texts{
	Greeting:  "Hallo,",
	Signature: "Ihr {store}-Team",

	SigninSubject: "Ihr Anmeldelink für {store}",
	SigninIntro:   "Mit diesem Link melden Sie sich bei {store} an. Er funktioniert einmal, innerhalb von {minutes} Minuten:",
	SigninButton:  "Anmelden",
	SigninIgnore:  "Wenn Sie ihn nicht angefordert haben, ignorieren Sie diese E-Mail: Ohne den Link kann sich niemand anmelden.",

	OrderSubject: "Wir haben Ihre Bestellung {order} erhalten",
	OrderIntro:   "Vielen Dank für Ihre Bestellung {order}: Ihre Zahlung über {total} ist eingegangen.",
	OrderNext:    "Wir richten Ihren Zugang jetzt ein und melden uns wieder, sobald er bereit ist.",
	OrderButton:  "Bestellung ansehen",

	ReadySubject:     "Ihr Zugang ist bereit (Bestellung {order})",
	ReadyIntro:       "Gute Nachricht: Der Zugang aus Ihrer Bestellung {order} ist einsatzbereit.",
	ReadyButton:      "Zugangsdaten anzeigen",
	ReadyCredentials: "Benutzername, Passwort und Serveradresse finden Sie auf dieser Seite, sobald Sie angemeldet sind. Zu Ihrer Sicherheit senden wir Passwörter nie per E-Mail.",
}

var spanish = Texts{
	Greeting:  "Hola:",
	Signature: "El equipo de {store}",

	SigninSubject: "Tu enlace de acceso a {store}",
	SigninIntro:   "Usa este enlace para acceder a {store}. Funciona una sola vez, durante {minutes} minutos:",
	SigninButton:  "Acceder",
	SigninIgnore:  "Si no lo has pedido, ignora este correo: nadie puede acceder sin el enlace.",

	OrderSubject: "Hemos recibido tu pedido {order}",
	OrderIntro:   "Gracias por tu pedido {order}: hemos recibido tu pago de {total}.",
	OrderNext:    "Estamos preparando tu línea y te escribiremos de nuevo en cuanto esté lista.",
	OrderButton:  "Ver tu pedido",

	ReadySubject:     "Tu línea está lista (pedido {order})",
	ReadyIntro:       "Buenas noticias: la línea de tu pedido {order} ya está lista para usar.",
	ReadyButton:      "Ver mis datos de acceso",
	ReadyCredentials: "Tu nombre de usuario, tu contraseña y la dirección del servidor están en esta página cuando inicias sesión. Por tu seguridad, nunca enviamos contraseñas por correo.",
}

var dutch = Texts{
	Greeting:  "Hallo,",
	Signature: "Het {store}-team",

	SigninSubject: "Je inloglink voor {store}",
	SigninIntro:   "Gebruik deze link om in te loggen bij {store}. Hij werkt één keer, binnen {minutes} minuten:",
	SigninButton:  "Inloggen",
	SigninIgnore:  "Heb je hier niet om gevraagd? Negeer dan deze e-mail: zonder de link kan niemand inloggen.",

	OrderSubject: "We hebben je bestelling {order} ontvangen",
	OrderIntro:   "Bedankt voor je bestelling {order}: je betaling van {total} is binnen.",
	OrderNext:    "We zetten je lijn nu klaar en laten van ons horen zodra hij werkt.",
	OrderButton:  "Bekijk je bestelling",

	ReadySubject:     "Je lijn is klaar (bestelling {order})",
	ReadyIntro:       "Goed nieuws: de lijn van je bestelling {order} is klaar voor gebruik.",
	ReadyButton:      "Toon mijn toegangsgegevens",
	ReadyCredentials: "Je gebruikersnaam, wachtwoord en serveradres staan op deze pagina zodra je bent ingelogd. Voor je veiligheid sturen we nooit wachtwoorden per e-mail.",
}

var portuguese = Texts{
	Greeting:  "Olá,",
	Signature: "A equipa {store}",

	SigninSubject: "A sua ligação de acesso a {store}",
	SigninIntro:   "Utilize esta ligação para entrar em {store}. Funciona uma única vez, durante {minutes} minutos:",
	SigninButton:  "Entrar",
	SigninIgnore:  "Se não a pediu, ignore este e-mail: ninguém pode entrar sem a ligação.",

	OrderSubject: "Recebemos a sua encomenda {order}",
	OrderIntro:   "Obrigado pela sua encomenda {order}: o seu pagamento de {total} foi recebido.",
	OrderNext:    "Estamos a preparar a sua linha e voltaremos a escrever assim que estiver pronta.",
	OrderButton:  "Ver a sua encomenda",

	ReadySubject:     "A sua linha está pronta (encomenda {order})",
	ReadyIntro:       "Boas notícias: a linha da sua encomenda {order} está pronta a usar.",
	ReadyButton:      "Mostrar os meus dados de acesso",
	ReadyCredentials: "O seu nome de utilizador, a palavra-passe e o endereço do servidor estão nesta página depois de iniciar sessão. Por segurança, nunca enviamos palavras-passe por e-mail.",
}

// TextsOf returns the texts of locale, one of Locales exactly, and whether it has them.
func TextsOf(locale string) (Texts, bool) {
	t, ok := texts[locale]
	return t, ok
}
