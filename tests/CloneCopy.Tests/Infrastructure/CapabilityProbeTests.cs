using Xunit;

namespace CloneCopy.Tests.Infrastructure;

/// <summary>
/// The probe the lanes ask what to leave out (<see cref="CapabilityProbe"/>) must be able to answer yes: Linux makes
/// symbolic links and renames over a file held open, so a "no" here would be a probe that leaves out tests that could
/// run. Its "no" is seen under Wine, whose answers the wine lane prints ("wine-lane: probed: ...").
/// </summary>
public sealed class CapabilityProbeTests
{
    [Fact]
    public void On_Linux_symbolic_links_are_found_to_work()
    {
        Capability answer = CapabilityProbe.SymbolicLinks;
        Assert.True(answer.Available, answer.ToString());
        Assert.StartsWith("Needs=SymbolicLinks yes ", answer.ToString(), System.StringComparison.Ordinal);
    }

    [Fact]
    public void On_Linux_a_rename_over_a_file_held_open_sharing_delete_is_found_to_work()
    {
        Capability answer = CapabilityProbe.RenameOverOpenFile;
        Assert.True(answer.Available, answer.ToString());
        Assert.StartsWith("Needs=RenameOverOpenFile yes ", answer.ToString(), System.StringComparison.Ordinal);
    }

    [Fact]
    public void On_Linux_unix_file_modes_are_found_to_work()
    {
        Capability answer = CapabilityProbe.UnixFileModes;
        Assert.True(answer.Available, answer.ToString());
        Assert.StartsWith("Needs=UnixFileModes yes ", answer.ToString(), System.StringComparison.Ordinal);
    }
}
