package io.vgpu.state.store;

import com.hazelcast.instance.impl.HazelcastInstanceProxy;
import com.hazelcast.internal.serialization.impl.compact.Schema;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import org.junit.jupiter.api.Test;

import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class CompactSchemasTest {

    /** A serializer added without a sample would leave its schema to a first use on an event loop. */
    @Test
    void everyRegisteredTypeHasASample() {
        assertThat(CompactSchemas.sampled()).containsAll(CompactSchemas.registered());
    }

    /** Once started, the member knows every schema: no later serialization of ours waits for a replication. */
    @Test
    void aStartedMemberHoldsEverySchemaBeforeItsFirstCall() {
        HazelcastClusterState state = HazelcastClusterState.start(
                StoreFixtures.memberConfig(StoreFixtures.clusterOf(1, 0, 1)));
        try {
            Set<String> known = ((HazelcastInstanceProxy) state.member()).getOriginal().node.getSchemaService()
                    .getAllSchemas().stream().map(Schema::getTypeName).collect(Collectors.toSet());
            Set<String> expected = Stream.concat(ValueSerializers.all().stream(),
                    ProcessorSerializers.all().stream()).map(CompactSerializer::getTypeName).collect(Collectors.toSet());
            assertThat(known).containsAll(expected);
        } finally {
            state.member().getLifecycleService().terminate();
        }
    }
}
