package quire

// SitePublishingAuth is how a visitor-auth site admits its visitors: they
// arrive with a token (a JWT) that the site's own backend signed with Key.
type SitePublishingAuth struct {
	// Key signs visitors' tokens with HS256, its text taken as the secret's
	// bytes. The site's admins must read it to sign with it, so it is kept
	// as is rather than hashed; "" until one is made (no token is valid).
	Key string
	// FallbackURL is where visitors without a valid token go to sign in;
	// LogoutURL signs them out of that backend. "" when none.
	FallbackURL string
	LogoutURL   string
	// Issuer, when not "", is the iss claim a token must carry (a Quire
	// extension of the reference's shape).
	Issuer string
}

// MaxSitePublishingAuthURL bounds the fallback and logout URLs.
const MaxSitePublishingAuthURL = 2048

// MaxIssuer bounds a site's expected token issuer.
const MaxIssuer = 256
