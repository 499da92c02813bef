// Messages and to-dos of a user (finished jobs' results): docs/product-rules.md#messages.
export {};
