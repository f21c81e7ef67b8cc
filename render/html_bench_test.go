package render

import (
	"fmt"
	"strings"
	"testing"
)

// benchPage is a realistic page of some 2 KB: headings, a list, a table,
// highlighted code, a hint and links.
const benchPage = `Quire publishes a space as a docs site. This page shows how to install
it, configure it and check that it runs; see [the FAQ](/pages/intro) first.

## Install

1. Download the binary for your platform from [the releases](https://github.com/quiredocs/quire/releases).
2. Put it on your ` + "`PATH`" + `, for instance in ` + "`/usr/local/bin`" + `.
3. Run ` + "`quire version`" + ` to check it.

{% hint style="warning" %}
Quire needs **write access** to its data directory: the database and the
uploaded files live there. See [files](guide.pdf) for the layout.
{% endhint %}

## Configure

Every setting has a default, then a ` + "`QUIRE_*`" + ` variable, then a flag:

| Setting | Variable | Default |
|---------|----------|---------|
| Address | ` + "`QUIRE_ADDR`" + ` | ` + "`:8080`" + ` |
| Data | ` + "`QUIRE_DATA`" + ` | ` + "`./data`" + ` |
| Database | ` + "`QUIRE_DATABASE_URL`" + ` | SQLite in the data directory |
| Log level | ` + "`QUIRE_LOG_LEVEL`" + ` | ` + "`info`" + ` |

### From Go

` + "```go" + `
package main

import (
	"context"
	"log"

	"github.com/quiredocs/quire/cmd/quire"
)

func main() {
	// Run the server until interrupted.
	if err := quire.Run(context.Background(), []string{"serve", "-addr", ":8080"}); err != nil {
		log.Fatal(err)
	}
}
` + "```" + `

## Check

- Open ` + "`http://localhost:8080/healthz`" + `: it answers *ok*.
- The logs show one line a request, with its ` + "`request_id`" + `.
- Read [installing behind a proxy](guides/install.md#proxy) for TLS.

![The dashboard](logo.png)

## Upgrade

Stop the server, replace the binary and start it again: migrations run at
start, each in its own transaction, so an upgrade that fails leaves the
database as it was. Keep a backup of the data directory all the same, and
read the [release notes](https://github.com/quiredocs/quire/releases) for
changes that need a step of yours, such as a renamed setting or a new
default. To go back, restore the backup and run the older binary.
`

// BenchmarkHTML renders benchPage with links resolved, as a site does for
// each page it serves.
func BenchmarkHTML(b *testing.B) {
	opt := htmlOptions("intro")
	b.ReportAllocs()
	b.SetBytes(int64(len(benchPage)))
	for b.Loop() {
		if _, err := HTML(benchPage, opt); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHTMLBounds renders pages of some hundred KB to a few MB built
// to make parsing or rendering superlinear; each should take well under a
// second.
func BenchmarkHTMLBounds(b *testing.B) {
	var defs strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&defs, "[^%d]: d\n", i)
	}
	var langs strings.Builder
	for i := range 20000 {
		fmt.Fprintf(&langs, "```l%d\nx\n```\n", i)
	}
	for _, bc := range []struct{ name, md string }{
		{"512 Ki quotes", strings.Repeat(">", 512<<10) + " x\n"},
		{"808 KB table", table808},
		{"reference lines", strings.Repeat("[a]\n", 250000)},
		{"definition lines", strings.Repeat("[a]: b\n", 150000)},
		{"lazy reference lines", "> x\n" + strings.Repeat("[a]\n", 250000)},
		{"indented reference lines", "x\n" + strings.Repeat("    [a]\n", 120000)},
		{"table of references", "|h|\n|-|\n" + strings.Repeat("[a]\n", 250000)},
		{"footnote references to the last", strings.Repeat("x[^z]\n", 100000) + "\n" + defs.String() + "[^z]: last\n"},
		{"footnote labels", strings.Repeat("![^", 300000)},
		{"hints left open", strings.Repeat("{% hint style=\"info\" %}\n", 100000) + "{% endhint %}\n"},
		{"hints closed", strings.Repeat("{% hint style=\"info\" %}\n", 50000) + strings.Repeat("{% endhint %}\n", 50000)},
		{"details left open", strings.Repeat("<details>\n", 100000) + "</details>\n"},
		{"tabs", "{% tabs %}\n" + strings.Repeat("{% tab title=\"x\" %}\nt\n", 50000) + "{% endtab %}\n{% endtabs %}\n"},
		{"embeds", strings.Repeat("{% embed url=\"https://a.test\" %}\n", 50000) + "{% endembed %}\n"},
		{"alerts", strings.Repeat("> [!NOTE]\n> x\n\n", 50000)},
		{"headings alike", strings.Repeat("## A\n", 200000)},
		{"headings and their ids", strings.Repeat("## a-1\n## a\n", 50000)},
		{"figure sources", strings.Repeat("<figure>"+strings.Repeat("<source srcset=x>", 1000)+"<img src=\"a.png\" alt=\"\"></figure>\n", 50)},
		{"1 MB of code", "```go\n" + strings.Repeat("func f(x int) string { return fmt.Sprint(x) } // c\n", 20000) + "```\n"},
		{"code blocks", strings.Repeat("```go\nfunc f(x int) string { return fmt.Sprint(x) }\n```\n", 20000)},
		{"made-up languages", langs.String()},
		{"links", strings.Repeat("[a](guides/install.md) ", 50000)},
		{"1 MiB of <", strings.Repeat("<", 1<<20)},
		{"tag attributes", "{% hint " + strings.Repeat("a=\"b\" ", 150000) + "%}\n"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			opt := htmlOptions("intro")
			b.SetBytes(int64(len(bc.md)))
			for b.Loop() {
				if _, err := HTML(bc.md, opt); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
