package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/quiredocs/quire/api"
	"github.com/quiredocs/quire/blob"
	"github.com/quiredocs/quire/dnscheck"
	"github.com/quiredocs/quire/gitsync"
	"github.com/quiredocs/quire/internal/llm"
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
	// AllowPrivateFetch lets fetched URLs reach private addresses
	// (QUIRE_ALLOW_PRIVATE_FETCH=1), for closed networks and tests.
	AllowPrivateFetch bool
	// SecretKey is QUIRE_SECRET_KEY, base64 of the 32-byte key that encrypts
	// integration secrets; empty, the server makes one and keeps it in the
	// database. Only from the environment: flags show in process lists.
	SecretKey string
	// LLMURL, LLMAPIKey and LLMModel name an OpenAI-compatible endpoint
	// (QUIRE_LLM_URL, QUIRE_LLM_API_KEY, QUIRE_LLM_MODEL) that answers
	// questions; unset, answers quote the documentation.
	LLMURL, LLMAPIKey, LLMModel string
	// OrgCreation says who may create organizations with the API
	// (QUIRE_ORG_CREATION): anyone (the default), members (not guests) of
	// some organization, or none; quire admin init always may.
	OrgCreation string
	// GitAllowFile lets Git sync use file:// repositories on the server's
	// disk (QUIRE_GIT_ALLOW_FILE=1); off, only http(s) remotes.
	GitAllowFile bool
	// GitKnownHosts is a known_hosts file, the only trust of ssh remotes'
	// host keys when set (QUIRE_GIT_KNOWN_HOSTS); else each space trusts a
	// host's first key.
	GitKnownHosts string
	// GitPoll is how often branches synced with spaces are polled for new
	// commits (QUIRE_GIT_POLL, a Go duration; default 1m).
	GitPoll time.Duration
	// GCGrace is how old what no revision uses must be before garbage
	// collection removes it (QUIRE_GC_GRACE, --gc-grace); negative when
	// QUIRE_GC_GRACE does not parse.
	GCGrace time.Duration
	// RateLimits are the rate limits as written (ratelimits.go).
	RateLimits rateLimitConfig
	// Blobs is where file bytes go (QUIRE_BLOBS, --blobs): a folder, or an
	// s3:// URL (see blob.ParseS3URL); empty is the data folder's blobs.
	Blobs string
	// DNSServer is the DNS server (host:port) asked for the records that
	// prove e-mail domains and custom hostnames (QUIRE_DNS_SERVER,
	// --dns-server); empty is the system's resolver.
	DNSServer string
	// CacheBudget is the bytes all in-memory caches may hold together
	// (QUIRE_CACHE_BUDGET, --cache-budget); 0 for the default, sized to the
	// machine; negative when QUIRE_CACHE_BUDGET does not parse.
	CacheBudget int64
}

func defaultConfig() Config {
	c := Config{Addr: "127.0.0.1:8080", Data: "./quire-data"}
	for env, dst := range map[string]*string{"QUIRE_ADDR": &c.Addr, "QUIRE_DATA": &c.Data, "QUIRE_DB": &c.DB, "QUIRE_PUBLIC_URL": &c.PublicURL} {
		if v := os.Getenv(env); v != "" {
			*dst = v
		}
	}
	c.AllowPrivateFetch = os.Getenv("QUIRE_ALLOW_PRIVATE_FETCH") == "1"
	c.SecretKey = os.Getenv("QUIRE_SECRET_KEY")
	c.LLMURL, c.LLMAPIKey, c.LLMModel = os.Getenv("QUIRE_LLM_URL"), os.Getenv("QUIRE_LLM_API_KEY"), os.Getenv("QUIRE_LLM_MODEL")
	c.OrgCreation = os.Getenv("QUIRE_ORG_CREATION")
	c.RateLimits = defaultRateLimits()
	c.Blobs = os.Getenv("QUIRE_BLOBS")
	c.DNSServer = os.Getenv("QUIRE_DNS_SERVER")
	if d, err := gcGraceDefault(); err == nil {
		c.GCGrace = d
	} else {
		c.GCGrace = -1
	}
	if n, err := cacheBudgetDefault(); err == nil {
		c.CacheBudget = n
	} else {
		c.CacheBudget = -1
	}
	c.GitAllowFile = os.Getenv("QUIRE_GIT_ALLOW_FILE") == "1"
	c.GitKnownHosts = os.Getenv("QUIRE_GIT_KNOWN_HOSTS")
	c.GitPoll = gitsync.DefaultPollInterval
	if d, err := time.ParseDuration(os.Getenv("QUIRE_GIT_POLL")); err == nil && d > 0 {
		c.GitPoll = d
	}
	return c
}

// gitFlags adds the Git sync settings.
func (c *Config) gitFlags(fs *flag.FlagSet) {
	fs.BoolVar(&c.GitAllowFile, "git-allow-file", c.GitAllowFile, "let Git sync use file:// repositories on this server's disk (env QUIRE_GIT_ALLOW_FILE=1)")
	fs.StringVar(&c.GitKnownHosts, "git-known-hosts", c.GitKnownHosts, "a known_hosts file, the only trust of Git sync's ssh host keys (env QUIRE_GIT_KNOWN_HOSTS; default: trust on first use)")
	fs.DurationVar(&c.GitPoll, "git-poll", c.GitPoll, "how often Git sync polls connected branches for new commits (env QUIRE_GIT_POLL)")
}

// dnsFlag adds --dns-server.
func (c *Config) dnsFlag(fs *flag.FlagSet) {
	fs.StringVar(&c.DNSServer, "dns-server", c.DNSServer,
		"DNS server (host:port) asked for the TXT records that prove e-mail domains and custom hostnames; default the system's resolver (env QUIRE_DNS_SERVER)")
}

// dns is the checker of the records that prove names (dnscheck).
func (c *Config) dns() (*dnscheck.Checker, error) {
	if c.DNSServer != "" {
		if _, port, err := net.SplitHostPort(c.DNSServer); err != nil || port == "" {
			return nil, fmt.Errorf("--dns-server (env QUIRE_DNS_SERVER): must be host:port, such as 127.0.0.1:53, not %q", c.DNSServer)
		}
	}
	return dnscheck.New(c.DNSServer), nil
}

// orgCreationFlag adds --org-creation.
func (c *Config) orgCreationFlag(fs *flag.FlagSet) {
	fs.StringVar(&c.OrgCreation, "org-creation", c.OrgCreation,
		"who may create organizations with the API: anyone, members (not guests) of some organization, or none; default anyone (env QUIRE_ORG_CREATION)")
}

// orgCreation reads --org-creation.
func (c *Config) orgCreation() (api.OrgCreation, error) {
	o, err := api.ParseOrgCreation(c.OrgCreation)
	if err != nil {
		return "", fmt.Errorf("--org-creation (env QUIRE_ORG_CREATION): must be anyone, members or none, not %q", c.OrgCreation)
	}
	return o, nil
}

// model is the configured answering model; nil when QUIRE_LLM_URL is unset.
func (c *Config) model() (*llm.Model, error) {
	if c.LLMURL == "" {
		return nil, nil
	}
	u, err := url.Parse(c.LLMURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, errors.New("QUIRE_LLM_URL: must be an http(s) URL, such as https://api.openai.com/v1")
	}
	if c.LLMModel == "" {
		return nil, errors.New("QUIRE_LLM_MODEL: must name the model when QUIRE_LLM_URL is set")
	}
	// No overall client timeout: streamed answers run as long as the API
	// lets them (api.askTimeout), and stop when the asker leaves.
	return &llm.Model{URL: strings.TrimRight(c.LLMURL, "/"), APIKey: c.LLMAPIKey, Name: c.LLMModel, Client: &http.Client{}}, nil
}

// storeFlags adds the flags every command that opens the store takes.
func (c *Config) storeFlags(fs *flag.FlagSet) {
	fs.StringVar(&c.Data, "data", c.Data, "data folder: the SQLite database and files (env QUIRE_DATA)")
	fs.StringVar(&c.DB, "db", c.DB, "database URL: postgres://… for PostgreSQL; empty for SQLite in the data folder (env QUIRE_DB)")
	fs.StringVar(&c.Blobs, "blobs", c.Blobs, "where file bytes go: a folder, or s3://bucket/prefix?endpoint=host:port&region=…&insecure=true with keys from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY; default the data folder's blobs (env QUIRE_BLOBS)")
}

// blobStore opens the store of file bytes --blobs names (making an S3
// bucket that is missing).
func (c *Config) blobStore(ctx context.Context) (blob.Collectable, error) {
	setting := c.Blobs
	if setting == "" {
		setting = filepath.Join(c.Data, "blobs")
	}
	st, err := blob.OpenStore(ctx, setting)
	if err != nil {
		return nil, fmt.Errorf("--blobs (env QUIRE_BLOBS): %w", err)
	}
	return st, nil
}

// secretKey decodes QUIRE_SECRET_KEY: nil when unset, else 32 bytes.
func (c *Config) secretKey() ([]byte, error) {
	if c.SecretKey == "" {
		return nil, nil
	}
	key, err := base64.StdEncoding.DecodeString(strings.TrimSpace(c.SecretKey))
	if err != nil || len(key) != 32 {
		return nil, errors.New("QUIRE_SECRET_KEY: must be 32 bytes in base64 (openssl rand -base64 32)")
	}
	return key, nil
}

// publicURL is where clients reach the server; by default its own address.
func (c *Config) publicURL() string {
	if c.PublicURL != "" {
		return strings.TrimRight(c.PublicURL, "/")
	}
	return "http://" + c.Addr
}

// newFlagSet makes a subcommand's flag set whose usage prints summary and
// flags; parse sends it to stdout when asked for with -help, else to stderr.
func newFlagSet(name, summary string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: %s\n\n", summary)
		fs.PrintDefaults()
	}
	return fs
}

// parse parses args; -help answers nil with help printed on stdout, a wrong
// flag errUsage with the complaint and usage on stderr.
func parse(fs *flag.FlagSet, args []string, stdout io.Writer) (helped bool, err error) {
	if helped, err := parseFlags(fs, args, stdout); helped || err != nil {
		return helped, err
	}
	if fs.NArg() > 0 {
		return false, usageError(fs, fmt.Errorf("unexpected argument %q", fs.Arg(0)))
	}
	return false, nil
}

// parseFlags is parse for a command that takes arguments after its flags
// (fs.Args).
func parseFlags(fs *flag.FlagSet, args []string, stdout io.Writer) (helped bool, err error) {
	stderr := fs.Output()
	var out bytes.Buffer // what flag printed, until we know where it belongs
	fs.SetOutput(&out)
	err = fs.Parse(args)
	fs.SetOutput(stderr)
	if errors.Is(err, flag.ErrHelp) {
		_, err = stdout.Write(out.Bytes())
		return true, err
	}
	stderr.Write(out.Bytes())
	if err != nil {
		return false, errUsage
	}
	return false, nil
}

// usageError prints err and the usage on stderr and answers errUsage: the
// command line was wrong, so the command exits 2.
func usageError(fs *flag.FlagSet, err error) error {
	fmt.Fprintln(fs.Output(), err)
	fs.Usage()
	return errUsage
}
