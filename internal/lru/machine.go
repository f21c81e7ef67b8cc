package lru

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
)

// The default budget is a quarter of the memory this process may use (the
// machine's, or its container's limit when lower), kept within a floor and
// a cap: enough to cache a large space on a small machine, and no more than
// caches earn on a large one.
const (
	minBudget = 256 << 20
	maxBudget = 2 << 30
)

// MachineBudget is the default cache budget in bytes for this machine.
func MachineBudget() int64 {
	return min(max(memoryLimit()/4, minBudget), maxBudget)
}

// memoryLimit is the bytes of memory this process may use: the machine's
// (Linux /proc/meminfo), or the cgroup's limit when lower; 4 GiB when
// neither can be read (another system).
func memoryLimit() int64 {
	limit := int64(4 << 30)
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		sc := bufio.NewScanner(bytes.NewReader(b))
		for sc.Scan() {
			if f := bytes.Fields(sc.Bytes()); len(f) >= 2 && string(f[0]) == "MemTotal:" {
				if kb, err := strconv.ParseInt(string(f[1]), 10, 64); err == nil && kb > 0 {
					limit = kb << 10
				}
			}
		}
	}
	for _, path := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		if b, err := os.ReadFile(path); err == nil {
			if n, err := strconv.ParseInt(string(bytes.TrimSpace(b)), 10, 64); err == nil && n > 0 && n < limit {
				limit = n
			}
		}
	}
	return limit
}
