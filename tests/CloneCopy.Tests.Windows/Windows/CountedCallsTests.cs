using System;
using System.Threading;
using CloneCopy.Platform.Windows;
using Microsoft.Win32.SafeHandles;
using Xunit;

namespace CloneCopy.Tests.Windows;

/// <summary>
/// The counter that <see cref="FreshSourceParallelCloneTests"/> asserts with ("no mutex call failed"), over the real
/// calls: a wait that runs out while another thread holds the mutex, and one that takes a mutex whose owner thread ended,
/// are answers the cloner acts on (wait again; own it), not failures; a release refused to a thread that does not own the
/// mutex is one. Counted as failures, a busy ReFS volume, where a clone's first FSCTL flushes megabytes and another
/// node's 250 ms slice runs out, would fail that test while the product did right.
/// </summary>
public sealed class CountedCallsTests
{
    [Fact]
    public void A_wait_that_times_out_or_takes_an_abandoned_mutex_is_made_not_failed_and_a_refused_release_is_failed()
    {
        IWindowsSystemCalls real = WindowsSystemCalls.Instance;
        var calls = new CountedCalls();
        string name = $@"Local\CloneCopy-test-{Guid.NewGuid():N}";
        using var owned = new ManualResetEventSlim();
        using var end = new ManualResetEventSlim();
        SafeWaitHandle? theirs = null;
        CancellationToken cancellation = TestContext.Current.CancellationToken;
        var owner = new Thread(() =>
        {
            real.CreateMutex(name, out theirs);
            real.WaitForMutex(theirs, 0);
            owned.Set();
            end.Wait(cancellation); // and ends owning it: abandoned
        });
        owner.Start();
        Assert.True(owned.Wait(TimeSpan.FromSeconds(30), cancellation));
        Assert.Equal(0, calls.Seam.CreateMutex(name, out SafeWaitHandle mine));
        try
        {
            Assert.Equal(Win32.WaitTimeout, calls.Seam.WaitForMutex(mine, 10));
            Assert.Equal(Win32.ErrorNotOwner, calls.Seam.ReleaseMutex(mine));
            end.Set();
            Assert.True(owner.Join(TimeSpan.FromSeconds(30)));
            Assert.Equal(Win32.WaitAbandoned, calls.Seam.WaitForMutex(mine, 5_000));
            Assert.Equal(0, calls.Seam.ReleaseMutex(mine));
        }
        finally
        {
            calls.Seam.CloseMutex(mine);
            real.CloseMutex(theirs!);
        }

        Assert.Equal(2, calls.Made("WaitForMutex"));
        Assert.True(calls.Failed("WaitForMutex") == 0, calls.ToString());
        Assert.True(calls.Failed("ReleaseMutex") == 1, calls.ToString());
    }
}
