package api

import (
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/quiredocs/quire/internal/lru"
)

// metrics are what GET /metrics shows Prometheus: requests by route and
// status, their durations, those in flight, the caches (of the process, in
// lru.Default), and the Go runtime and process.
// Each Server has its own registry, so that servers in one process (tests)
// count apart.
type metrics struct {
	registry *prometheus.Registry
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	inFlight prometheus.Gauge

	// series keeps each route and status's counter and histogram, which
	// WithLabelValues would otherwise look up by hashing on every request.
	series sync.Map // routeStatus → routeSeries
}

type routeStatus struct {
	route  string
	status int
}

type routeSeries struct {
	requests prometheus.Counter
	duration prometheus.Observer
}

func newMetrics() *metrics {
	m := &metrics{
		registry: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "quire_http_requests_total", Help: "HTTP requests answered, by route pattern and status.",
		}, []string{"route", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "quire_http_request_duration_seconds", Help: "Time to answer HTTP requests, by route pattern.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
		}, []string{"route"}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "quire_http_requests_in_flight", Help: "HTTP requests being answered.",
		}),
	}
	m.registry.MustRegister(m.requests, m.duration, m.inFlight, cacheCollector{lru.Default},
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// handler serves the metrics in Prometheus' text format.
func (m *metrics) handler() http.Handler {
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{})
}

// observe counts a request answered. route is the pattern that served it,
// never the path: paths hold ids without end.
func (m *metrics) observe(route string, status int, took time.Duration) {
	if route == "" || route == "/" { // "/" is noRoute's
		route = "unmatched"
	}
	key := routeStatus{route, status}
	v, ok := m.series.Load(key)
	if !ok {
		v, _ = m.series.LoadOrStore(key, routeSeries{
			requests: m.requests.WithLabelValues(route, strconv.Itoa(status)),
			duration: m.duration.WithLabelValues(route),
		})
	}
	series := v.(routeSeries)
	series.requests.Inc()
	series.duration.Observe(took.Seconds())
}

// cacheCollector shows each cache of a budget, by its name: its entries,
// bytes and bound, and its lookups' hits and misses; and the budget.
type cacheCollector struct{ budget *lru.Budget }

var (
	cacheBudgetDesc  = prometheus.NewDesc("quire_cache_budget_bytes", "Bytes all in-memory caches may hold together (--cache-budget).", nil, nil)
	cacheEntriesDesc = prometheus.NewDesc("quire_cache_entries", "Entries held, by cache.", []string{"cache"}, nil)
	cacheBytesDesc   = prometheus.NewDesc("quire_cache_bytes", "Estimated bytes held, by cache.", []string{"cache"}, nil)
	cacheMaxDesc     = prometheus.NewDesc("quire_cache_max_bytes", "Bytes a cache may hold: its share of the budget.", []string{"cache"}, nil)
	cacheHitsDesc    = prometheus.NewDesc("quire_cache_hits_total", "Lookups that found their key, by cache.", []string{"cache"}, nil)
	cacheMissesDesc  = prometheus.NewDesc("quire_cache_misses_total", "Lookups that did not find their key, by cache.", []string{"cache"}, nil)
)

func (c cacheCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{cacheBudgetDesc, cacheEntriesDesc, cacheBytesDesc, cacheMaxDesc, cacheHitsDesc, cacheMissesDesc} {
		ch <- d
	}
}

func (c cacheCollector) Collect(ch chan<- prometheus.Metric) {
	ch <- prometheus.MustNewConstMetric(cacheBudgetDesc, prometheus.GaugeValue, float64(c.budget.Total()))
	for _, s := range c.budget.Stats() {
		ch <- prometheus.MustNewConstMetric(cacheEntriesDesc, prometheus.GaugeValue, float64(s.Entries), s.Name)
		ch <- prometheus.MustNewConstMetric(cacheBytesDesc, prometheus.GaugeValue, float64(s.Bytes), s.Name)
		ch <- prometheus.MustNewConstMetric(cacheMaxDesc, prometheus.GaugeValue, float64(s.Max), s.Name)
		ch <- prometheus.MustNewConstMetric(cacheHitsDesc, prometheus.CounterValue, float64(s.Hits), s.Name)
		ch <- prometheus.MustNewConstMetric(cacheMissesDesc, prometheus.CounterValue, float64(s.Misses), s.Name)
	}
}
