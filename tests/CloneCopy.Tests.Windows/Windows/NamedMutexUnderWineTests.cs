using System;
using System.Collections.Generic;
using System.Threading;
using CloneCopy.Platform.Windows;
using Microsoft.Win32.SafeHandles;
using Xunit;

namespace CloneCopy.Tests.Windows;

/// <summary>
/// The named mutex that serializes clones of a fresh source (WindowsBlockCloner.FreshSources.cs), through the real
/// kernel32 declarations (CreateMutexW, WaitForSingleObject, ReleaseMutex, CloseHandle) under Wine and through the
/// simulator, asked the same things from two threads: one name is one object (Object Names: CreateMutex of a name in
/// use "returns a handle to the existing object"), another thread's wait times out with WAIT_TIMEOUT while it is owned,
/// a thread that does not own it cannot release it (ERROR_NOT_OWNER, ReleaseMutex), its owner may take it again and
/// must release it as often, and then the other thread gets it; a thread that ends owning it abandons it, and the next
/// wait owns it with WAIT_ABANDONED (Mutex Objects).
/// </summary>
// Wine's answers, not Windows': left out where the Windows lane runs natively (.ci/windows-steps.yml).
[Trait("Needs", "Wine")]
public sealed class NamedMutexUnderWineTests
{
    [Fact]
    public void The_mutex_calls_answer_as_in_the_simulator()
    {
        string name = $@"Local\CloneCopy-test-{Guid.NewGuid():N}";
        string wine = Scenario(WindowsSystemCalls.Instance, name);
        string simulated = Scenario(new SimulatedWindowsSystemCalls(), name);

        Assert.Equal($"create 0 0, own 0, other waits {Win32.WaitTimeout}, other releases {Win32.ErrorNotOwner}, again 0, release 0 0 {Win32.ErrorNotOwner}, other waits 0, other releases 0, other owns 0 and ends, abandoned {Win32.WaitAbandoned}, release 0", wine);
        Assert.Equal(wine, simulated);
    }

    private static string Scenario(IWindowsSystemCalls kernel, string name)
    {
        var said = new List<string>();
        int first = kernel.CreateMutex(name, out SafeWaitHandle mine);
        int second = kernel.CreateMutex(name, out SafeWaitHandle theirs);
        said.Add($"create {first} {second}");
        try
        {
            said.Add($"own {kernel.WaitForMutex(mine, 0)}");
            OnAnotherThread(() => said.Add($"other waits {kernel.WaitForMutex(theirs, 50)}, other releases {kernel.ReleaseMutex(theirs)}"));
            said.Add($"again {kernel.WaitForMutex(mine, 0)}");
            said.Add($"release {kernel.ReleaseMutex(mine)} {kernel.ReleaseMutex(mine)} {kernel.ReleaseMutex(mine)}");
            OnAnotherThread(() => said.Add($"other waits {kernel.WaitForMutex(theirs, 1000)}, other releases {kernel.ReleaseMutex(theirs)}"));
            OnAnotherThread(() => said.Add($"other owns {kernel.WaitForMutex(theirs, 0)} and ends"));
            said.Add($"abandoned {kernel.WaitForMutex(mine, 1000)}, release {kernel.ReleaseMutex(mine)}");
        }
        finally
        {
            kernel.CloseMutex(mine);
            kernel.CloseMutex(theirs);
        }

        return string.Join(", ", said);
    }

    private static void OnAnotherThread(Action action)
    {
        var thread = new Thread(() => action());
        thread.Start();
        Assert.True(thread.Join(TimeSpan.FromSeconds(30)));
    }
}
