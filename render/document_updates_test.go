package render

import "testing"

// updatesTests are updates as Git Sync writes them, and the outline of
// their document; Markdown writes the document back byte for byte.
var updatesTests = []struct{ name, md, want string }{
	{"updates", "{% updates format=\"full\" %}\n{% update date=\"2026-06-16\" %}\n## Added a link\n\n- a footer link\n{% endupdate %}\n\n" +
		"{% update date=\"2026-05-27\" tags=\"new-feature,webapp\" %}\nFixed.\n{% endupdate %}\n{% endupdates %}\n",
		`updates{"format":"full"}[update{"date":"2026-06-16T00:00:00.000Z"}[heading-2["Added a link"] list-unordered[list-item[paragraph["a footer link"]]]] ` +
			`update{"date":"2026-05-27T00:00:00.000Z","tags":[{"kind":"tag","tag":"new-feature"},{"kind":"tag","tag":"webapp"}]}[paragraph["Fixed."]]]`},
	{"formats", "{% updates format=\"numeric\" %}\n{% update date=\"2026-01-02\" %}\na\n{% endupdate %}\n{% endupdates %}\n\n{% updates format=\"short\" %}\n{% endupdates %}\n",
		`updates{"format":"numeric"}[update{"date":"2026-01-02T00:00:00.000Z"}[paragraph["a"]]] updates{"format":"short"}[]`},
	{"tabs in an update", "{% updates format=\"full\" %}\n{% update date=\"2026-01-02\" %}\n{% tabs %}\n{% tab title=\"A\" %}\na\n{% endtab %}\n{% endtabs %}\n{% endupdate %}\n{% endupdates %}\n",
		`updates{"format":"full"}[update{"date":"2026-01-02T00:00:00.000Z"}[tabs[tabs-item{"title":"A"}[paragraph["a"]]]]]`},
}

// updatesReadTests are other markdown with updates.
var updatesReadTests = []struct{ name, md, want string }{
	{"no format is full", "{% updates %}\n{% update date=\"2026-01-02\" %}\na\n{% endupdate %}\n{% endupdates %}", `updates{"format":"full"}[update{"date":"2026-01-02T00:00:00.000Z"}[paragraph["a"]]]`},
	{"blank lines around updates", "{% updates format=\"full\" %}\n\n{% update date=\"2026-01-02\" %}\n\na\n{% endupdate %}\n\n{% endupdates %}", `updates{"format":"full"}[update{"date":"2026-01-02T00:00:00.000Z"}[paragraph["a"]]]`},
	{"empty tags are left out", "{% updates %}\n{% update date=\"2026-01-02\" tags=\",a,,\" %}\nx\n{% endupdate %}\n{% endupdates %}",
		`updates{"format":"full"}[update{"date":"2026-01-02T00:00:00.000Z","tags":[{"kind":"tag","tag":"a"}]}[paragraph["x"]]]`},
	{"year zero", "{% updates %}\n{% update date=\"0000-01-01\" %}\nx\n{% endupdate %}\n{% endupdates %}",
		`updates{"format":"full"}[update{"date":"0000-01-01T00:00:00.000Z"}[paragraph["x"]]]`},
	{"tags escaped", "{% updates %}\n{% update date=\"2026-01-02\" tags=0\" %}\nx\n{% endupdate %}\n{% endupdates %}",
		`updates{"format":"full"}[update{"date":"2026-01-02T00:00:00.000Z","tags":[{"kind":"tag","tag":"0\""}]}[paragraph["x"]]]`},
	{"a date that is not a day is dates and content", "{% updates format=\"full\" %}\n{% update date=\"soon\" %}\na\n{% endupdate %}\n{% endupdates %}", `paragraph["soon"] paragraph["a"]`},
	{"table in an update is rows", "{% updates %}\n{% update date=\"2026-01-02\" %}\n| a |\n| - |\n{% endupdate %}\n{% endupdates %}", `updates{"format":"full"}[update{"date":"2026-01-02T00:00:00.000Z"}[paragraph["a"]]]`},
	{"updates in a tab are dates and content", "{% tabs %}\n{% tab title=\"T\" %}\n{% updates %}\n{% update date=\"2026-01-02\" %}\na\n{% endupdate %}\n{% endupdates %}\n{% endtab %}\n{% endtabs %}",
		`tabs[tabs-item{"title":"T"}[paragraph["2026-01-02"] paragraph["a"]]]`},
}

func TestUpdatesRoundTrip(t *testing.T) { checkKind(t, outline, updatesTests, updatesReadTests) }
