package mail

// Texts are every sentence of every message in one locale. Placeholders: {store}, {order},
// {total}, {minutes}, {due}, {suspend}; dates are written by DateLayout and Months. Each locale is a keyed literal of this type: a misspelt or removed field
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
	// OrderReceipt introduces the invoice PDF's link ({invoice}: its number).
	OrderReceipt string
	// ItemsTotal labels the total under a mail's items.
	ItemsTotal string

	ReadySubject string
	ReadyIntro   string
	ReadyButton  string
	// ReadyCredentials says where the credentials are: never the password itself.
	ReadyCredentials string

	// The renewal mails share a button and a note on what the pay link can do.
	RenewalButton   string
	RenewalLinkNote string

	RenewalInvoiceSubject string
	RenewalInvoiceIntro   string
	RenewalInvoiceNext    string

	ReminderSubject string
	ReminderIntro   string

	DueSubject string
	DueIntro   string
	DueNext    string

	OverdueSubject string
	OverdueIntro   string
	OverdueWarning string

	// A renewal of a line that renews with a saved card: the card is charged on the due date
	// (CardNext, CardDueNext); after a charge did not pay, CardDeclined says to pay by the link.
	CardNext     string
	CardDueNext  string
	CardDeclined string

	// The renewal-paid mail: {total} paid, {due} the new due date.
	RenewalPaidSubject string
	RenewalPaidIntro   string
	RenewalPaidButton  string

	TrialEndingSubject string
	TrialEndingIntro   string
	TrialEndingNext    string
	TrialEndingButton  string

	// The change mails: an operator changed the subscription, the difference is to pay.
	ChangeSubject string
	ChangeIntro   string
	ChangeNext    string
	// RefundSubject … RefundNext: money given back on an order, in full or in part ({total}: the
	// amount of this refund; the link is its credit note, {invoice} its number).
	RefundSubject string
	RefundIntro   string
	RefundButton  string
	RefundNext    string

	// PaymentRequest…: an order held for a check was released; the buyer may pay it now with the
	// link, until {due}.
	PaymentRequestSubject string
	PaymentRequestIntro   string
	PaymentRequestButton  string
	PaymentRequestNext    string

	// DateLayout writes a date with {day}, {month} (a name of Months) and {year}.
	DateLayout string
	Months     [12]string
}

// texts holds every locale of Locales.
var texts = map[string]Texts{
	"en":    english,
	"en-us": american,
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
	OrderReceipt: "Your invoice {invoice} (PDF):",
	OrderButton:  "View your order",
	ItemsTotal:   "Total",

	ReadySubject:     "Your line is ready (order {order})",
	ReadyIntro:       "Good news: the line from your order {order} is ready to use.",
	ReadyButton:      "Show my access details",
	ReadyCredentials: "Your user name, password and server address are on this page once you sign in. For your safety we never send passwords by email.",

	RenewalButton:   "Pay the invoice",
	RenewalLinkNote: "The link opens this invoice only, without signing in: please do not share it.",

	RenewalInvoiceSubject: "Your {store} subscription renews on {due}",
	RenewalInvoiceIntro:   "Your subscription is due for renewal on {due}, and your renewal invoice of {total} is ready.",
	RenewalInvoiceNext:    "Pay it before then and your line carries on without a break, with the same user name and password.",

	ReminderSubject: "Reminder: your {store} subscription renews on {due}",
	ReminderIntro:   "Your renewal invoice of {total} is still open. Your subscription is due on {due}, in three days.",

	DueSubject: "Your {store} subscription is due today",
	DueIntro:   "Your subscription is due today, {due}, and your renewal invoice of {total} is still open.",
	DueNext:    "Pay it today to keep your line running.",

	OverdueSubject: "Payment overdue: your {store} line will be suspended on {suspend}",
	OverdueIntro:   "Your subscription was due on {due} and your renewal invoice of {total} is still unpaid.",
	OverdueWarning: "Unless it is paid, your line will be suspended on {suspend}. Paying afterwards brings the same line back.",
	CardNext:       "Nothing to do: your saved card will be charged {total} on {due}. To pay another way, use the link below before then.",
	CardDueNext:    "Nothing to do: your saved card is charged {total} today.",
	CardDeclined:   "Your bank declined the charge to your saved card. Please pay the invoice with the link below to keep your line running.",

	RenewalPaidSubject: "Your {store} renewal is paid",
	RenewalPaidIntro:   "Thank you: your renewal payment of {total} has arrived. Your subscription now runs until {due}, with the same line, user name and password.",
	RenewalPaidButton:  "Go to my services",

	TrialEndingSubject: "Your {store} trial ends on {due}",
	TrialEndingIntro:   "Your free trial ends on {due}. Continue with a paid plan to keep watching without a break.",
	TrialEndingNext:    "Choose a plan on your services page: your line, user name and password stay the same.",
	TrialEndingButton:  "Continue with a paid plan",

	ChangeSubject: "Your {store} subscription change: {total} to pay",
	ChangeIntro:   "We have prepared the change of your subscription you asked for. It costs {total} for the rest of the current period, up to {due}.",
	ChangeNext:    "Pay it and the change applies at once, with the same user name and password.",
	RefundSubject: "We refunded {total} on your order {order}",
	RefundIntro:   "We have refunded {total} on your order {order}. Depending on how you paid, it can take a few days to reach you.",
	RefundButton:  "Your credit note {invoice}",
	RefundNext:    "The credit note is the document of this refund; keep it with your invoice.",

	PaymentRequestSubject: "Your order {order} is ready to pay",
	PaymentRequestIntro:   "Thank you for your patience: we have checked your order {order}, and you can pay {total} now.",
	PaymentRequestButton:  "Pay {total}",
	PaymentRequestNext:    "The link works until {due}. If you no longer want it, ignore this email and nothing will be charged.",

	DateLayout: "{day} {month} {year}",
	Months:     [12]string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"},
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
	OrderReceipt: "Ihre Rechnung {invoice} (PDF):",
	OrderButton:  "Bestellung ansehen",
	ItemsTotal:   "Gesamt",

	ReadySubject:     "Ihr Zugang ist bereit (Bestellung {order})",
	ReadyIntro:       "Gute Nachricht: Der Zugang aus Ihrer Bestellung {order} ist einsatzbereit.",
	ReadyButton:      "Zugangsdaten anzeigen",
	ReadyCredentials: "Benutzername, Passwort und Serveradresse finden Sie auf dieser Seite, sobald Sie angemeldet sind. Zu Ihrer Sicherheit senden wir Passwörter nie per E-Mail.",

	RenewalButton:   "Rechnung bezahlen",
	RenewalLinkNote: "Der Link öffnet nur diese Rechnung, ohne Anmeldung: Bitte geben Sie ihn nicht weiter.",

	RenewalInvoiceSubject: "Ihr {store}-Abonnement verlängert sich am {due}",
	RenewalInvoiceIntro:   "Ihr Abonnement wird am {due} verlängert, und Ihre Verlängerungsrechnung über {total} liegt bereit.",
	RenewalInvoiceNext:    "Bezahlen Sie sie bis dahin, dann läuft Ihr Zugang ohne Unterbrechung weiter, mit demselben Benutzernamen und Passwort.",

	ReminderSubject: "Erinnerung: Ihr {store}-Abonnement verlängert sich am {due}",
	ReminderIntro:   "Ihre Verlängerungsrechnung über {total} ist noch offen. Ihr Abonnement ist am {due} fällig, in drei Tagen.",

	DueSubject: "Ihr {store}-Abonnement ist heute fällig",
	DueIntro:   "Ihr Abonnement ist heute, am {due}, fällig, und Ihre Verlängerungsrechnung über {total} ist noch offen.",
	DueNext:    "Bezahlen Sie sie heute, damit Ihr Zugang weiterläuft.",

	OverdueSubject: "Zahlung überfällig: Ihr {store}-Zugang wird am {suspend} gesperrt",
	OverdueIntro:   "Ihr Abonnement war am {due} fällig, und Ihre Verlängerungsrechnung über {total} ist noch unbezahlt.",
	OverdueWarning: "Ohne Zahlung wird Ihr Zugang am {suspend} gesperrt. Eine spätere Zahlung schaltet denselben Zugang wieder frei.",
	CardNext:       "Sie müssen nichts tun: Ihre gespeicherte Karte wird am {due} mit {total} belastet. Wenn Sie anders bezahlen möchten, nutzen Sie bis dahin den Link unten.",
	CardDueNext:    "Sie müssen nichts tun: Ihre gespeicherte Karte wird heute mit {total} belastet.",
	CardDeclined:   "Ihre Bank hat die Abbuchung von Ihrer gespeicherten Karte abgelehnt. Bitte bezahlen Sie die Rechnung über den Link unten, damit Ihr Zugang weiterläuft.",

	RenewalPaidSubject: "Ihre {store}-Verlängerung ist bezahlt",
	RenewalPaidIntro:   "Vielen Dank: Ihre Verlängerungszahlung über {total} ist eingegangen. Ihr Abonnement läuft jetzt bis zum {due}, mit demselben Zugang, Benutzernamen und Passwort.",
	RenewalPaidButton:  "Zu meinen Diensten",

	TrialEndingSubject: "Ihr {store}-Test endet am {due}",
	TrialEndingIntro:   "Ihr kostenloser Test endet am {due}. Wechseln Sie zu einem bezahlten Tarif, um ohne Unterbrechung weiterzuschauen.",
	TrialEndingNext:    "Wählen Sie einen Tarif auf Ihrer Seite mit den Diensten: Zugang, Benutzername und Passwort bleiben gleich.",
	TrialEndingButton:  "Mit einem bezahlten Tarif weitermachen",

	ChangeSubject: "Änderung Ihres {store}-Abonnements: {total} zu bezahlen",
	ChangeIntro:   "Wir haben die gewünschte Änderung Ihres Abonnements vorbereitet. Sie kostet {total} für den Rest des laufenden Zeitraums, bis zum {due}.",
	ChangeNext:    "Sobald Sie bezahlt haben, gilt die Änderung sofort, mit demselben Benutzernamen und Passwort.",
	RefundSubject: "Wir haben {total} für Ihre Bestellung {order} erstattet",
	RefundIntro:   "Wir haben {total} für Ihre Bestellung {order} erstattet. Je nach Zahlungsart kann es einige Tage dauern, bis der Betrag bei Ihnen ankommt.",
	RefundButton:  "Ihre Gutschrift {invoice}",
	RefundNext:    "Die Gutschrift ist der Beleg dieser Erstattung; bewahren Sie sie mit Ihrer Rechnung auf.",

	PaymentRequestSubject: "Ihre Bestellung {order} kann jetzt bezahlt werden",
	PaymentRequestIntro:   "Danke für Ihre Geduld: Wir haben Ihre Bestellung {order} geprüft, und Sie können jetzt {total} bezahlen.",
	PaymentRequestButton:  "{total} bezahlen",
	PaymentRequestNext:    "Der Link gilt bis {due}. Wenn Sie sie nicht mehr möchten, ignorieren Sie diese E-Mail: Es wird nichts abgebucht.",

	DateLayout: "{day}. {month} {year}",
	Months:     [12]string{"Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November", "Dezember"},
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
	OrderReceipt: "Tu factura {invoice} (PDF):",
	OrderButton:  "Ver tu pedido",
	ItemsTotal:   "Total",

	ReadySubject:     "Tu línea está lista (pedido {order})",
	ReadyIntro:       "Buenas noticias: la línea de tu pedido {order} ya está lista para usar.",
	ReadyButton:      "Ver mis datos de acceso",
	ReadyCredentials: "Tu nombre de usuario, tu contraseña y la dirección del servidor están en esta página cuando inicias sesión. Por tu seguridad, nunca enviamos contraseñas por correo.",

	RenewalButton:   "Pagar la factura",
	RenewalLinkNote: "El enlace abre solo esta factura, sin iniciar sesión: no lo compartas.",

	RenewalInvoiceSubject: "Tu suscripción a {store} se renueva el {due}",
	RenewalInvoiceIntro:   "Tu suscripción se renueva el {due} y ya tienes lista tu factura de renovación de {total}.",
	RenewalInvoiceNext:    "Págala antes de esa fecha y tu línea seguirá funcionando sin cortes, con el mismo usuario y la misma contraseña.",

	ReminderSubject: "Recordatorio: tu suscripción a {store} se renueva el {due}",
	ReminderIntro:   "Tu factura de renovación de {total} sigue pendiente. Tu suscripción vence el {due}, dentro de tres días.",

	DueSubject: "Tu suscripción a {store} vence hoy",
	DueIntro:   "Tu suscripción vence hoy, {due}, y tu factura de renovación de {total} sigue pendiente.",
	DueNext:    "Págala hoy para que tu línea siga funcionando.",

	OverdueSubject: "Pago vencido: tu línea de {store} se suspenderá el {suspend}",
	OverdueIntro:   "Tu suscripción venció el {due} y tu factura de renovación de {total} sigue sin pagar.",
	OverdueWarning: "Si no se paga, tu línea se suspenderá el {suspend}. Si pagas después, recuperarás la misma línea.",
	CardNext:       "No tienes que hacer nada: el {due} se cargarán {total} en tu tarjeta guardada. Si prefieres pagar de otra forma, usa el enlace de abajo antes de esa fecha.",
	CardDueNext:    "No tienes que hacer nada: hoy se cargan {total} en tu tarjeta guardada.",
	CardDeclined:   "Tu banco ha rechazado el cargo en tu tarjeta guardada. Paga la factura con el enlace de abajo para que tu línea siga funcionando.",

	RenewalPaidSubject: "Tu renovación de {store} está pagada",
	RenewalPaidIntro:   "Gracias: tu pago de renovación de {total} ha llegado. Tu suscripción sigue ahora hasta el {due}, con la misma línea, usuario y contraseña.",
	RenewalPaidButton:  "Ir a mis servicios",

	TrialEndingSubject: "Tu prueba de {store} termina el {due}",
	TrialEndingIntro:   "Tu prueba gratuita termina el {due}. Continúa con un plan de pago para seguir viendo sin cortes.",
	TrialEndingNext:    "Elige un plan en la página de tus servicios: tu línea, tu usuario y tu contraseña no cambian.",
	TrialEndingButton:  "Continuar con un plan de pago",

	ChangeSubject: "Cambio de tu suscripción a {store}: {total} por pagar",
	ChangeIntro:   "Hemos preparado el cambio de tu suscripción que pediste. Cuesta {total} por el resto del periodo actual, hasta el {due}.",
	ChangeNext:    "Págalo y el cambio se aplica de inmediato, con el mismo usuario y contraseña.",
	RefundSubject: "Te hemos devuelto {total} de tu pedido {order}",
	RefundIntro:   "Te hemos devuelto {total} de tu pedido {order}. Según cómo pagaste, puede tardar unos días en llegarte.",
	RefundButton:  "Tu factura rectificativa {invoice}",
	RefundNext:    "La factura rectificativa es el documento de esta devolución; guárdala con tu factura.",

	PaymentRequestSubject: "Ya puedes pagar tu pedido {order}",
	PaymentRequestIntro:   "Gracias por tu paciencia: hemos revisado tu pedido {order} y ya puedes pagar {total}.",
	PaymentRequestButton:  "Pagar {total}",
	PaymentRequestNext:    "El enlace funciona hasta el {due}. Si ya no lo quieres, ignora este correo y no se cobrará nada.",

	DateLayout: "{day} de {month} de {year}",
	Months:     [12]string{"enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"},
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
	OrderReceipt: "Je factuur {invoice} (pdf):",
	OrderButton:  "Bekijk je bestelling",
	ItemsTotal:   "Totaal",

	ReadySubject:     "Je lijn is klaar (bestelling {order})",
	ReadyIntro:       "Goed nieuws: de lijn van je bestelling {order} is klaar voor gebruik.",
	ReadyButton:      "Toon mijn toegangsgegevens",
	ReadyCredentials: "Je gebruikersnaam, wachtwoord en serveradres staan op deze pagina zodra je bent ingelogd. Voor je veiligheid sturen we nooit wachtwoorden per e-mail.",

	RenewalButton:   "Factuur betalen",
	RenewalLinkNote: "De link opent alleen deze factuur, zonder inloggen: deel hem met niemand.",

	RenewalInvoiceSubject: "Je {store}-abonnement wordt verlengd op {due}",
	RenewalInvoiceIntro:   "Je abonnement wordt verlengd op {due} en je verlengingsfactuur van {total} staat klaar.",
	RenewalInvoiceNext:    "Betaal hem vóór die datum en je lijn loopt zonder onderbreking door, met dezelfde gebruikersnaam en hetzelfde wachtwoord.",

	ReminderSubject: "Herinnering: je {store}-abonnement wordt verlengd op {due}",
	ReminderIntro:   "Je verlengingsfactuur van {total} staat nog open. Je abonnement vervalt op {due}, over drie dagen.",

	DueSubject: "Je {store}-abonnement vervalt vandaag",
	DueIntro:   "Je abonnement vervalt vandaag, {due}, en je verlengingsfactuur van {total} staat nog open.",
	DueNext:    "Betaal hem vandaag, zodat je lijn blijft werken.",

	OverdueSubject: "Betaling te laat: je {store}-lijn wordt op {suspend} geblokkeerd",
	OverdueIntro:   "Je abonnement verviel op {due} en je verlengingsfactuur van {total} is nog niet betaald.",
	OverdueWarning: "Zonder betaling wordt je lijn op {suspend} geblokkeerd. Betaal je later, dan krijg je dezelfde lijn terug.",
	CardNext:       "Je hoeft niets te doen: op {due} wordt {total} van je opgeslagen kaart afgeschreven. Wil je anders betalen, gebruik dan vóór die datum de link hieronder.",
	CardDueNext:    "Je hoeft niets te doen: vandaag wordt {total} van je opgeslagen kaart afgeschreven.",
	CardDeclined:   "Je bank heeft de afschrijving van je opgeslagen kaart geweigerd. Betaal de factuur via de link hieronder, zodat je lijn blijft werken.",

	RenewalPaidSubject: "Je verlenging bij {store} is betaald",
	RenewalPaidIntro:   "Bedankt: je verlengingsbetaling van {total} is binnen. Je abonnement loopt nu tot {due}, met dezelfde lijn, gebruikersnaam en hetzelfde wachtwoord.",
	RenewalPaidButton:  "Naar mijn diensten",

	TrialEndingSubject: "Je {store}-proefperiode eindigt op {due}",
	TrialEndingIntro:   "Je gratis proefperiode eindigt op {due}. Ga verder met een betaald abonnement en kijk zonder onderbreking door.",
	TrialEndingNext:    "Kies een abonnement op de pagina met je diensten: je lijn, gebruikersnaam en wachtwoord blijven hetzelfde.",
	TrialEndingButton:  "Verder met een betaald abonnement",

	ChangeSubject: "Wijziging van je {store}-abonnement: {total} te betalen",
	ChangeIntro:   "We hebben de gevraagde wijziging van je abonnement klaargezet. Die kost {total} voor de rest van de huidige periode, tot {due}.",
	ChangeNext:    "Betaal en de wijziging gaat meteen in, met dezelfde gebruikersnaam en hetzelfde wachtwoord.",
	RefundSubject: "We hebben {total} van je bestelling {order} terugbetaald",
	RefundIntro:   "We hebben {total} van je bestelling {order} terugbetaald. Afhankelijk van hoe je betaalde, kan het een paar dagen duren voor het bij je is.",
	RefundButton:  "Je creditnota {invoice}",
	RefundNext:    "De creditnota is het bewijs van deze terugbetaling; bewaar hem bij je factuur.",

	PaymentRequestSubject: "Je bestelling {order} kan nu betaald worden",
	PaymentRequestIntro:   "Bedankt voor je geduld: we hebben je bestelling {order} gecontroleerd en je kunt nu {total} betalen.",
	PaymentRequestButton:  "{total} betalen",
	PaymentRequestNext:    "De link werkt tot {due}. Wil je haar niet meer, negeer dan deze e-mail: er wordt niets afgeschreven.",

	DateLayout: "{day} {month} {year}",
	Months:     [12]string{"januari", "februari", "maart", "april", "mei", "juni", "juli", "augustus", "september", "oktober", "november", "december"},
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
	OrderReceipt: "A sua fatura {invoice} (PDF):",
	OrderButton:  "Ver a sua encomenda",
	ItemsTotal:   "Total",

	ReadySubject:     "A sua linha está pronta (encomenda {order})",
	ReadyIntro:       "Boas notícias: a linha da sua encomenda {order} está pronta a usar.",
	ReadyButton:      "Mostrar os meus dados de acesso",
	ReadyCredentials: "O seu nome de utilizador, a palavra-passe e o endereço do servidor estão nesta página depois de iniciar sessão. Por segurança, nunca enviamos palavras-passe por e-mail.",

	RenewalButton:   "Pagar a fatura",
	RenewalLinkNote: "A ligação abre apenas esta fatura, sem iniciar sessão: não a partilhe.",

	RenewalInvoiceSubject: "A sua subscrição de {store} é renovada a {due}",
	RenewalInvoiceIntro:   "A sua subscrição é renovada a {due} e a sua fatura de renovação de {total} já está disponível.",
	RenewalInvoiceNext:    "Pague-a até essa data e a sua linha continua sem interrupções, com o mesmo nome de utilizador e a mesma palavra-passe.",

	ReminderSubject: "Lembrete: a sua subscrição de {store} é renovada a {due}",
	ReminderIntro:   "A sua fatura de renovação de {total} continua por pagar. A sua subscrição vence a {due}, daqui a três dias.",

	DueSubject: "A sua subscrição de {store} vence hoje",
	DueIntro:   "A sua subscrição vence hoje, {due}, e a sua fatura de renovação de {total} continua por pagar.",
	DueNext:    "Pague-a hoje para que a sua linha continue a funcionar.",

	OverdueSubject: "Pagamento em atraso: a sua linha {store} será suspensa a {suspend}",
	OverdueIntro:   "A sua subscrição venceu a {due} e a sua fatura de renovação de {total} continua por pagar.",
	OverdueWarning: "Se não for paga, a sua linha será suspensa a {suspend}. Se pagar depois, recupera a mesma linha.",
	CardNext:       "Não precisa de fazer nada: a {due} serão cobrados {total} no seu cartão guardado. Se preferir pagar de outra forma, use a ligação abaixo até essa data.",
	CardDueNext:    "Não precisa de fazer nada: hoje são cobrados {total} no seu cartão guardado.",
	CardDeclined:   "O seu banco recusou a cobrança no seu cartão guardado. Pague a fatura pela ligação abaixo para manter a sua linha ativa.",

	RenewalPaidSubject: "A sua renovação {store} está paga",
	RenewalPaidIntro:   "Obrigado: o seu pagamento de renovação de {total} foi recebido. A sua subscrição continua agora até {due}, com a mesma linha, utilizador e palavra-passe.",
	RenewalPaidButton:  "Ir para os meus serviços",

	TrialEndingSubject: "O seu período experimental de {store} termina a {due}",
	TrialEndingIntro:   "O seu período experimental gratuito termina a {due}. Continue com um plano pago para ver sem interrupções.",
	TrialEndingNext:    "Escolha um plano na página dos seus serviços: a sua linha, o nome de utilizador e a palavra-passe mantêm-se.",
	TrialEndingButton:  "Continuar com um plano pago",

	ChangeSubject: "Alteração da sua subscrição {store}: {total} a pagar",
	ChangeIntro:   "Preparámos a alteração da sua subscrição que pediu. Custa {total} pelo resto do período atual, até {due}.",
	ChangeNext:    "Pague e a alteração aplica-se de imediato, com o mesmo nome de utilizador e palavra-passe.",
	RefundSubject: "Reembolsámos {total} da sua encomenda {order}",
	RefundIntro:   "Reembolsámos {total} da sua encomenda {order}. Conforme o meio de pagamento, pode demorar alguns dias a chegar.",
	RefundButton:  "A sua nota de crédito {invoice}",
	RefundNext:    "A nota de crédito é o documento deste reembolso; guarde-a com a sua fatura.",

	PaymentRequestSubject: "Já pode pagar a sua encomenda {order}",
	PaymentRequestIntro:   "Obrigado pela paciência: verificámos a sua encomenda {order} e já pode pagar {total}.",
	PaymentRequestButton:  "Pagar {total}",
	PaymentRequestNext:    "A ligação funciona até {due}. Se já não a quiser, ignore este e-mail e nada será cobrado.",

	DateLayout: "{day} de {month} de {year}",
	Months:     [12]string{"janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto", "setembro", "outubro", "novembro", "dezembro"},
}

// american is English with the month before the day.
var american = func() Texts {
	t := english
	t.DateLayout = "{month} {day}, {year}"
	return t
}()

// TextsOf returns the texts of locale, one of Locales exactly, and whether it has them.
func TextsOf(locale string) (Texts, bool) {
	t, ok := texts[locale]
	return t, ok
}
