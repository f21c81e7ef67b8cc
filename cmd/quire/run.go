package main

import (
	"context"
	"fmt"
	"io"
)

const mainUsage = `Quire is a self-hostable documentation platform.

Usage:
  quire serve [flags]        run the API server (quire serve -help for flags)
  quire admin init …         create an organization and its admin
  quire admin add-user …     add a user to an organization
  quire admin token create … issue an API token for a user
  quire space export|import SPACE_ID DIR …  a space as a GitBook Git Sync folder

Every command reads QUIRE_ADDR, QUIRE_DATA, QUIRE_DB and QUIRE_PUBLIC_URL.
`

// run is the whole CLI, callable in-process by tests.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, mainUsage)
		return errUsage
	}
	switch args[0] {
	case "serve":
		return serve(ctx, args[1:], stdout, stderr)
	case "admin":
		return admin(ctx, args[1:], stdout, stderr)
	case "space":
		return space(ctx, args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, mainUsage)
		return nil
	}
	fmt.Fprintf(stderr, "unknown command %q\n\n%s", args[0], mainUsage)
	return errUsage
}
