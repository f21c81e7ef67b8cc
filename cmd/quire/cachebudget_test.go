package main

import "testing"

func TestParseSize(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want int64
	}{{"1048576", 1 << 20}, {"512MiB", 512 << 20}, {"512M", 512 << 20}, {"2GiB", 2 << 30}, {"2GB", 2 << 30}, {"64K", 64 << 10}, {"100B", 100}} {
		if got, err := parseSize(tt.in); err != nil || got != tt.want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", tt.in, got, err, tt.want)
		}
	}
	for _, in := range []string{"", "0", "lots", "-1M", "1T", "1.5G", "MiB", "1iM", "9999999999G"} {
		if got, err := parseSize(in); err == nil {
			t.Errorf("parseSize(%q) = %d, want an error", in, got)
		}
	}
}
