// Guardian consent register: docs/product-rules.md#consent.
export {};
