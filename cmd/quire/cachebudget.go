package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// errCacheBudget means QUIRE_CACHE_BUDGET did not parse.
var errCacheBudget = errors.New("--cache-budget (env QUIRE_CACHE_BUDGET): must be a size such as 512MiB or 2GiB")

// cacheBudgetDefault reads QUIRE_CACHE_BUDGET; 0 when unset, for the
// budget sized to the machine (lru.MachineBudget) that lru.Default has.
func cacheBudgetDefault() (int64, error) {
	v := os.Getenv("QUIRE_CACHE_BUDGET")
	if v == "" {
		return 0, nil
	}
	n, err := parseSize(v)
	if err != nil {
		return 0, errCacheBudget
	}
	return n, nil
}

// cacheBudgetFlag adds --cache-budget (env QUIRE_CACHE_BUDGET) to fs.
func (c *Config) cacheBudgetFlag(fs *flag.FlagSet) {
	fs.Var((*sizeFlag)(&c.CacheBudget), "cache-budget",
		"bytes all in-memory caches may hold together, such as 512MiB or 2GiB; default a quarter of memory, 256MiB to 2GiB (env QUIRE_CACHE_BUDGET)")
}

// sizeFlag is a flag of a size in bytes: a whole number above 0,
// optionally with K, M or G (KiB, MiB, GiB; KB, MB and GB count the same).
type sizeFlag int64

func (s *sizeFlag) String() string { return strconv.FormatInt(int64(*s), 10) }

func (s *sizeFlag) Set(v string) error {
	n, err := parseSize(v)
	if err != nil {
		return err
	}
	*s = sizeFlag(n)
	return nil
}

func parseSize(v string) (int64, error) {
	num := strings.TrimRight(v, "KMGiB")
	unit := strings.TrimSuffix(strings.TrimSuffix(v[len(num):], "B"), "i")
	shift, ok := map[string]uint{"": 0, "K": 10, "M": 20, "G": 30}[unit]
	n, err := strconv.ParseInt(num, 10, 64)
	if !ok || err != nil || n <= 0 || n > (1<<62)>>shift {
		return 0, fmt.Errorf("must be a size such as 512MiB or 2GiB, not %q", v)
	}
	return n << shift, nil
}
