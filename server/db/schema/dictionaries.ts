// Dictionaries (字典管理): docs/product-rules.md#dictionaries.
export {};
