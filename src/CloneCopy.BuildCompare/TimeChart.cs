using System.Linq;
using ScottPlot;

namespace CloneCopy.BuildCompare;

/// <summary>Every timed build's time, both ways, in the order they ran: drift or one slow outlier shows at a glance.</summary>
public static class TimeChart
{
    public static void Write(ComparisonResult result, string path)
    {
        var plot = new Plot();
        foreach (var way in new[] { BuildWay.MSBuildCopy, BuildWay.CloneCopy })
        {
            var builds = result.Builds.Where(b => b.Way == way && !b.WarmUp).ToList();
            var points = plot.Add.Scatter(builds.Select(b => (double)b.Sequence).ToArray(), builds.Select(b => b.Seconds).ToArray());
            points.LegendText = $"{way.Title()} (median {WayStatistics.Of(way, result.Builds).MedianSeconds:0.00} s)";
            points.MarkerSize = 8;
        }

        plot.Title($"Clean builds of {System.IO.Path.GetFileName(result.Target)}");
        plot.XLabel("build, in the order run");
        plot.YLabel("seconds");
        plot.Axes.SetLimitsY(0, result.Builds.Max(b => b.Seconds) * 1.15);
        plot.ShowLegend(Alignment.LowerRight);
        plot.SaveSvg(path, 800, 450);
    }
}
