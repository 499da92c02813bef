// Retention runs and parents' data requests: docs/product-rules.md#retention.
export {};
