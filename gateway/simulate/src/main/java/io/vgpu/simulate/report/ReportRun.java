package io.vgpu.simulate.report;


import java.util.List;

/**
 * Everything the HTML report draws for one simulation run (one policy).
 *
 * @param label          what distinguishes the run, e.g. {@code binpack / spread}
 * @param summary        the run's summary (the table {@code simulate} prints)
 * @param nodes          GPU usage of every node at the end of the run, in node order
 * @param timeline       utilisation and fragmentation sampled while the pods were placed, in order
 * @param latencyNanos   one placement latency per placed pod, in nanoseconds (may be empty)
 * @param latencyWhat    what {@code latencyNanos} measures, in words
 */
public record ReportRun(String label, SimulationReport summary, List<NodeUsage> nodes, List<TimePoint> timeline,
                        long[] latencyNanos, String latencyWhat) {

    /** Copies the lists and the array. */
    public ReportRun {
        nodes = List.copyOf(nodes);
        timeline = List.copyOf(timeline);
        latencyNanos = latencyNanos == null ? new long[0] : latencyNanos.clone();
        latencyWhat = latencyWhat == null ? "" : latencyWhat;
    }

    /**
     * One node's GPUs.
     *
     * @param name node name
     * @param gpus its GPUs in registration order
     */
    public record NodeUsage(String name, List<GpuUsage> gpus) {

        /** Copies the list. */
        public NodeUsage {
            gpus = List.copyOf(gpus);
        }
    }

    /**
     * One GPU's grants.
     *
     * @param id         GPU UUID
     * @param type       model name
     * @param usedMemMiB granted memory
     * @param memMiB     memory
     * @param usedCores  granted SM percent
     * @param cores      SM percent (normally 100)
     * @param slots      allocations on the card
     * @param maxSlots   split count
     */
    public record GpuUsage(String id, String type, long usedMemMiB, long memMiB, long usedCores, long cores,
                           int slots, int maxSlots) {

        /** Granted / total memory, 0 when the card has none. */
        public double memoryShare() {
            return memMiB <= 0 ? 0 : Math.min(1, (double) usedMemMiB / memMiB);
        }

        /** Granted / total SM percent, 0 when the card has none. */
        public double coreShare() {
            return cores <= 0 ? 0 : Math.min(1, (double) usedCores / cores);
        }
    }

    /**
     * The cluster after {@code podsDone} pods.
     *
     * @param podsDone          pods handled so far
     * @param seconds           since the first pod
     * @param memoryUtilisation granted / all GPU memory
     * @param coreUtilisation   granted / all SM percent
     * @param fragmentation     free memory on GPUs that cannot take the workload's median request / all free memory
     * @param placed            pods placed so far (0 when unknown)
     */
    public record TimePoint(int podsDone, double seconds, double memoryUtilisation, double coreUtilisation,
                            double fragmentation, int placed) {
    }
}
