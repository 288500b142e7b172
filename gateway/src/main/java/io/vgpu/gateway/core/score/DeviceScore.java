package io.vgpu.gateway.core.score;

import io.vgpu.gateway.core.fit.ScoringWeights;
import io.vgpu.state.model.ContainerRequest;
import io.vgpu.state.model.DeviceUsage;

import java.util.List;

/**
 * The per-container device score HAMi sorts a node's devices by (spec §10.1), in IEEE single precision
 * with HAMi's exact operation order:
 * <pre>
 *   0 when count, totalcore or totalmem is 0; otherwise, over the requests whose type EQUALS the device type:
 *   usedScore = float32(req + used) / float32(count)          req = number of such requests (nums ignored)
 *   coreScore = float32(core + usedcores) / float32(totalcore) core = Σ coresreq
 *   memScore  = float32(mem + usedmem) / float32(totalmem)     mem = Σ (pct ∉ {0,101} ? int32(totalmem·pct/100) : memreq)
 *   score     = 10 · (wSlot·usedScore + wCore·coreScore + wMem·memScore)
 * </pre>
 * The exact type equality is HAMi v2.10's: requests say {@code NVIDIA} while real devices register their
 * model name, so on production nodes the request term is inert and the score reflects existing usage
 * (spec §15.2); it is kept for bit-exact device ordering. Integer sums wrap like Go's int32. Pure.
 */
public final class DeviceScore {

    /** HAMi's {@code util.Weight}. */
    static final float WEIGHT = 10f;

    private DeviceScore() {
    }

    /** The score of {@code d} for one container whose only request is {@code request}. */
    public static float of(DeviceUsage d, ContainerRequest request, ScoringWeights weights) {
        if (d.count() == 0 || d.totalcore() == 0 || d.totalmem() == 0) {
            return 0f;
        }
        int req = 0;
        int core = 0;
        int mem = 0;
        if (request != null && request.type().equals(d.type())) {
            req = 1;
            core = request.coresreq();
            mem = requestedMemory(d, request);
        }
        return combine(d, req, core, mem, weights);
    }

    /** The score of {@code d} for one container with several vendor requests (all entries of the container). */
    public static float of(DeviceUsage d, List<ContainerRequest> requests, ScoringWeights weights) {
        if (d.count() == 0 || d.totalcore() == 0 || d.totalmem() == 0) {
            return 0f;
        }
        int req = 0;
        int core = 0;
        int mem = 0;
        for (ContainerRequest r : requests) {
            if (!r.type().equals(d.type())) {
                continue;
            }
            req += 1;
            core += r.coresreq();
            mem += requestedMemory(d, r);
        }
        return combine(d, req, core, mem, weights);
    }

    private static int requestedMemory(DeviceUsage d, ContainerRequest r) {
        int pct = r.mempercentagereq();
        if (pct != 0 && pct != ContainerRequest.NO_PERCENTAGE) {
            return (int) ((long) d.totalmem() * pct / 100);
        }
        return r.memreq();
    }

    private static float combine(DeviceUsage d, int req, int core, int mem, ScoringWeights w) {
        float usedScore = (float) (req + d.used()) / (float) d.count();
        float coreScore = (float) (core + d.usedcores()) / (float) d.totalcore();
        float memScore = (float) (mem + d.usedmem()) / (float) d.totalmem();
        return WEIGHT * ((float) w.slot() * usedScore + (float) w.core() * coreScore + (float) w.memory() * memScore);
    }
}
