// Placeholder until `npm run calibrate` regenerates it.
export const CALIBRATION = {
  features: ["normalizedScore", "rank"],
  weights: [2.502416, -0.407913],
  bias: -1.260113,
} as const;
