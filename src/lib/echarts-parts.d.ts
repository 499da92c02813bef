// ECharts' per-part modules (`echarts/lib/chart/<type>`, `echarts/lib/component/<name>`) ship without types: they
// export nothing and register their part when evaluated (src/lib/echarts.ts loads them).
declare module 'echarts/lib/chart/*';
declare module 'echarts/lib/component/*';
