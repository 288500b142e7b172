package io.vgpu.gateway.core.fit;

import io.vgpu.gateway.core.quota.QuotaGate;
import io.vgpu.gateway.core.reason.DeviceRejection;
import io.vgpu.state.model.CapacityRule;
import io.vgpu.state.model.ContainerDevice;
import io.vgpu.state.model.ContainerRequest;
import io.vgpu.state.model.DeviceUsage;
import io.vgpu.state.model.FitReason;
import io.vgpu.state.model.MigPlacement;
import io.vgpu.state.model.Vendor;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * HAMi's NVIDIA {@code Fit} (spec §9.4): chooses the devices for one container request among the
 * devices of one node, walking the list from its <b>last</b> element to its first. Per device, in this
 * order, a failed check counts its reason and moves on:
 * <pre>
 *   1 !health → CardNotHealth          2 cordoned → CardCordoned
 *   3 use/nouse-gputype, vgpu-mode, request type ≠ NVIDIA → CardTypeMismatch
 *   4 numa-bind and NUMA changed → restart the run (discarded picks count NumaNotFit)
 *   5 use/nouse-gpuuuid → CardUuidMismatch
 *   6 no free slot → CardTimeSlicingExhausted                       ({@link CapacityRule#slotRejection})
 *   7 mutex policy and used > 0 → ExclusiveDeviceAllocateConflict
 *   8 clamp cores to 100 (sticky)   9 resolve memory (memreq, else totalmem × pct / 100)
 *  10 quota gate → ResourceQuotaNotFit
 * 11-14 memory, cores, exclusivity, exhausted cores                ({@link CapacityRule#resourceRejection})
 *  15 MIG placement → CardMigTopologyInfeasible
 *  16 pick   17 enough picks (not topology-aware) → success   18 a MIG card is visited again
 * </pre>
 * Under {@code topology-aware} every fitting device is collected and the best subset is chosen by pair
 * scores afterwards. A failure reports every counter over {@code len(devices)} as a {@link DeviceRejection}
 * (HAMi's text, {@code "<count>/<len(devices)> <Reason>"} sorted as strings, is made from it at the edge). Pure,
 * allocation-light, thread-safe.
 */
public final class NvidiaFit {

    private static final FitReason[] REASONS = FitReason.values();

    private NvidiaFit() {
    }

    /**
     * Runs Fit.
     *
     * @param devices   the candidate devices in the order handed to Fit (sorted by the device comparator and
     *                  filtered to the vendor by the caller); the denominator of every reason
     * @param request   the container's request; {@code nums} devices are wanted
     * @param ctx       the pod and node context
     * @param allocated the pod's earlier containers (one list per container, init first), for the quota gate
     * @param initCount how many of the pod's containers are init containers (quota collapse)
     * @return the decision; never null
     */
    public static FitResult fit(List<DeviceUsage> devices, ContainerRequest request, FitContext ctx,
                                List<List<ContainerDevice>> allocated, int initCount) {
        Walk walk = new Walk(devices, request, ctx, allocated, initCount);
        return walk.run();
    }

    /** The state of one walk (HAMi's locals: k.nums, k.coresreq, prevnuma, tmpDevs, reason). */
    private static final class Walk {
        private final List<DeviceUsage> devices;
        private final ContainerRequest request;
        private final FitContext ctx;
        private final List<List<ContainerDevice>> allocated;
        private final int initCount;
        private final int[] counts = new int[REASONS.length];
        private final boolean[] counted = new boolean[REASONS.length];
        private final List<ContainerDevice> picks = new ArrayList<>();
        private final int origin;
        private int nums;
        private int cores;
        private int revisitsLeft = -1;

        Walk(List<DeviceUsage> devices, ContainerRequest request, FitContext ctx,
             List<List<ContainerDevice>> allocated, int initCount) {
            this.devices = devices;
            this.request = request;
            this.ctx = ctx;
            this.allocated = allocated == null ? List.of() : allocated;
            this.initCount = initCount;
            this.origin = request.nums();
            this.nums = origin;
            this.cores = request.coresreq();
        }

        FitResult run() {
            AnnotationFilters filters = ctx.filters();
            boolean vendorOk = Vendor.NVIDIA.equals(request.type());
            boolean numa = filters.numaBind();
            boolean topology = ctx.needTopology();
            int prevNuma = -1;
            for (int i = devices.size() - 1; i >= 0; i--) {
                DeviceUsage dev = devices.get(i);
                if (!dev.health()) {
                    count(FitReason.CardNotHealth);
                    continue;
                }
                if (ctx.cordoned().contains(dev.id())) {
                    count(FitReason.CardCordoned);
                    continue;
                }
                if (!vendorOk || !filters.allowsType(dev.type()) || !filters.allowsMode(dev.mode())) {
                    count(FitReason.CardTypeMismatch);
                    continue;
                }
                if (numa && prevNuma != dev.numa()) {
                    if (nums != origin) {
                        add(FitReason.NumaNotFit, picks.size());
                    }
                    nums = origin;
                    prevNuma = dev.numa();
                    picks.clear();
                }
                if (!filters.allowsUuid(dev.id())) {
                    count(FitReason.CardUuidMismatch);
                    continue;
                }
                FitReason slot = CapacityRule.slotRejection(dev);
                if (slot != null) {
                    count(slot);
                    continue;
                }
                if (ctx.mutex() && dev.used() > 0) {
                    count(FitReason.ExclusiveDeviceAllocateConflict);
                    continue;
                }
                if (cores > 100) {
                    cores = 100;
                }
                int memreq = resolvedMemory(dev);
                if (ctx.quota() != QuotaGate.NONE && !quotaAdmits(dev, memreq)) {
                    count(FitReason.ResourceQuotaNotFit);
                    continue;
                }
                FitReason capacity = CapacityRule.resourceRejection(dev, memreq, cores);
                if (capacity != null) {
                    count(capacity);
                    continue;
                }
                if (!migAdmits(dev, memreq)) {
                    count(dev.isMig() ? FitReason.CardMigTopologyInfeasible : FitReason.CardNotFoundCustomFilterRule);
                    continue;
                }
                if (nums > 0) {
                    if (!topology) {
                        nums--;
                    }
                    picks.add(new ContainerDevice(dev.index(), dev.id(), request.type(), memreq, cores));
                }
                if (nums == 0 && !topology) {
                    return FitResult.fits(picks);
                }
                if (dev.isMig() && mayRevisit(topology)) {
                    i++; // one physical MIG GPU can take several instances: look at it again
                }
            }
            if (topology && picks.size() == origin) {
                return FitResult.fits(picks);
            }
            if (topology && origin >= 1 && picks.size() > origin) {
                return FitResult.fits(TopologySelection.choose(picks, origin, ctx.pairScores()));
            }
            if (!picks.isEmpty()) {
                counts[FitReason.AllocatedCardsInsufficientRequest.ordinal()] = picks.size();
                counted[FitReason.AllocatedCardsInsufficientRequest.ordinal()] = true;
            }
            return new FitResult(false, picks, rejection(devices.size()));
        }

        /** Step 9: memreq wins; a percentage applies only when memreq is 0 (Go int32 arithmetic). */
        private int resolvedMemory(DeviceUsage dev) {
            int memreq = 0;
            if (request.memreq() > 0) {
                memreq = request.memreq();
            }
            if (request.mempercentagereq() != ContainerRequest.NO_PERCENTAGE && request.memreq() == 0) {
                memreq = dev.totalmem() * request.mempercentagereq() / 100;
            }
            return memreq;
        }

        /** Step 10: earlier containers + this container's picks + the candidate, collapsed by the gate. */
        private boolean quotaAdmits(DeviceUsage dev, int memreq) {
            List<List<ContainerDevice>> hypothetical = new ArrayList<>(allocated.size() + 1);
            hypothetical.addAll(allocated);
            List<ContainerDevice> current = new ArrayList<>(picks.size() + 1);
            current.addAll(picks);
            current.add(new ContainerDevice(0, dev.id(), Vendor.NVIDIA, memreq, cores));
            hypothetical.add(current);
            return ctx.quota().admits(ctx.namespace(), hypothetical, initCount);
        }

        /**
         * Step 15 (HAMi's {@code CustomFilterRule}): on a MIG card, the placements in use plus those this
         * container's earlier picks on the same card would take must leave room for one more instance.
         */
        private boolean migAdmits(DeviceUsage dev, int memreq) {
            if (!dev.isMig()) {
                return true;
            }
            List<MigPlacement> occupied = MigSelection.placements(dev.migUsed());
            for (ContainerDevice earlier : picks) {
                if (!earlier.uuid().equals(dev.id())) {
                    continue;
                }
                MigSelection.Choice choice = MigSelection.select(dev.migProfiles(), occupied, earlier.usedmem());
                if (choice == null) {
                    return false;
                }
                occupied.add(choice.placement());
            }
            return MigSelection.select(dev.migProfiles(), occupied, memreq) != null;
        }

        /**
         * Step 18. Outside topology-aware mode the walk ends after {@code nums} picks, as in HAMi. Under
         * topology-aware HAMi revisits a MIG card until its placements run out; malformed zero-size
         * placements never run out, so the revisits are capped by the number of placements on the node.
         */
        private boolean mayRevisit(boolean topology) {
            if (!topology) {
                return true;
            }
            if (revisitsLeft < 0) {
                revisitsLeft = 0;
                for (DeviceUsage d : devices) {
                    if (d.isMig()) {
                        d.migProfiles().forEach(p -> revisitsLeft += p.placements().size());
                    }
                }
            }
            return revisitsLeft-- > 0;
        }

        private void count(FitReason r) {
            add(r, 1);
        }

        private void add(FitReason r, int n) {
            counts[r.ordinal()] += n;
            counted[r.ordinal()] = true;
        }

        /** HAMi's counters over {@code cards} devices (its {@code GenReason} text is made at the edge). */
        private DeviceRejection rejection(int cards) {
            Map<FitReason, Integer> out = new EnumMap<>(FitReason.class);
            for (FitReason r : REASONS) {
                if (counted[r.ordinal()]) {
                    out.put(r, counts[r.ordinal()]);
                }
            }
            return new DeviceRejection(out, cards);
        }
    }
}
