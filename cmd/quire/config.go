package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// errUsage means the command line was wrong; usage has been printed.
var errUsage = errors.New("usage")

// Config is every setting of the quire command: defaults, then QUIRE_*
// environment variables, then flags.
type Config struct {
	Addr      string
	Data      string
	DB        string
	PublicURL string
}

func defaultConfig() Config {
	c := Config{Addr: "127.0.0.1:8080", Data: "./quire-data"}
	for env, dst := range map[string]*string{"QUIRE_ADDR": &c.Addr, "QUIRE_DATA": &c.Data, "QUIRE_DB": &c.DB, "QUIRE_PUBLIC_URL": &c.PublicURL} {
		if v := os.Getenv(env); v != "" {
			*dst = v
		}
	}
	return c
}

// storeFlags adds the flags every command that opens the store takes.
func (c *Config) storeFlags(fs *flag.FlagSet) {
	fs.StringVar(&c.Data, "data", c.Data, "data folder: the SQLite database and files (env QUIRE_DATA)")
	fs.StringVar(&c.DB, "db", c.DB, "database URL: postgres://… for PostgreSQL; empty for SQLite in the data folder (env QUIRE_DB)")
}

// publicURL is where clients reach the server; by default its own address.
func (c *Config) publicURL() string {
	if c.PublicURL != "" {
		return strings.TrimRight(c.PublicURL, "/")
	}
	return "http://" + c.Addr
}

// newFlagSet makes a subcommand's flag set whose -help prints summary and flags.
func newFlagSet(name, summary string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: %s\n\n", summary)
		fs.PrintDefaults()
	}
	return fs
}

// parse parses args; -help answers nil with help printed, a wrong flag errUsage.
func parse(fs *flag.FlagSet, args []string) (helped bool, err error) {
	err = fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		return true, nil
	}
	if err != nil {
		return false, errUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(fs.Output(), "unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		return false, errUsage
	}
	return false, nil
}
