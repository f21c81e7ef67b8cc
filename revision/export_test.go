package revision

// DerivedSearches is how many searches were derived from the one before
// (search.go).
func (r *Reader) DerivedSearches() int64 { return r.derivedSearches.Load() }
