-- How a visitor-auth site checks its visitors (the reference's
-- SitePublishingAuth): the key that signs their tokens (HS256), where to send
-- them to sign in (fallback URL) and to sign out, and the issuer their tokens
-- must name, if any. The key is a signing secret that the site's admins read
-- to sign with, so it is stored as is, as share_key is; no answer but the
-- site's publishing auth shows it. Sites made before this migration have
-- none (NULL, and no token is valid) until their admins first read it.
ALTER TABLE sites ADD COLUMN visitor_key TEXT;
ALTER TABLE sites ADD COLUMN visitor_fallback_url TEXT;
ALTER TABLE sites ADD COLUMN visitor_logout_url TEXT;
ALTER TABLE sites ADD COLUMN visitor_issuer TEXT;
