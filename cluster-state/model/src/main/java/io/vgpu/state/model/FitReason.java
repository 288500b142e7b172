package io.vgpu.state.model;

/**
 * HAMi's per-device rejection words (spec §9.4), spelled exactly as they appear on the wire in
 * {@code FailedNodes} reasons ({@code "<count>/<devices> <Word>"}).
 */
public enum FitReason {
    CardTypeMismatch,
    CardUuidMismatch,
    CardTimeSlicingExhausted,
    CardComputeUnitsExhausted,
    CardInsufficientMemory,
    CardInsufficientCore,
    CardNotHealth,
    CardCordoned,
    NumaNotFit,
    ExclusiveDeviceAllocateConflict,
    CardNotFoundCustomFilterRule,
    CardMigTopologyInfeasible,
    AllocatedCardsInsufficientRequest,
    ResourceQuotaNotFit
}
