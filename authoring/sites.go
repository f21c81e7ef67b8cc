package authoring

import (
	"unicode/utf8"

	"github.com/quiredocs/quire"
	"github.com/quiredocs/quire/store"
)

// MaxSpaceTitle bounds the title of a space.
const MaxSpaceTitle = 50

// PublishedSpace is the space a site creates to publish (POST O/sites with
// spaces an object, POST SITE/sections and SITE/site-spaces with spaceId
// null): titled after what publishes it, cut to MaxSpaceTitle characters,
// and edited live.
func PublishedSpace(title string) *store.NewSpace {
	if utf8.RuneCountInString(title) > MaxSpaceTitle {
		title = string([]rune(title)[:MaxSpaceTitle])
	}
	return &store.NewSpace{Title: title, EditMode: quire.EditLive}
}
