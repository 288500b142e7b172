package io.vgpu.simulate.dra;

import io.vgpu.simulate.dra.cel.QuantityValue;
import java.util.Map;

/** One device picked for a request; {@code shareId} and {@code consumed} are set for shared devices only. */
record DeviceResult(RequestSpec request, Candidate candidate, String shareId, Map<String, QuantityValue> consumed) {
}
